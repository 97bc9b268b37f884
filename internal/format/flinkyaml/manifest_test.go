package flinkyaml

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

const twoDeployments = `apiVersion: v1
kind: ConfigMap
metadata:
  name: not-flink
data:
  flink-conf.yaml: "a: b"
---
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  namespace: prod
  name: "job-a"
spec:
  flinkVersion: v1_17
  mode: native
  flinkConfiguration:
    taskmanager.numberOfTaskSlots: "2"
    state.checkpoints.dir: hdfs:///ckpt
  taskManager:
    replicas: 3
  job:
    parallelism: 4
    upgradeMode: last-state
---
# a second one, nested configuration
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: job-b
spec:
  flinkConfiguration:
    execution:
      checkpointing:
        interval: 10s
    execution.checkpointing.timeout: 10 min
`

// summary is what TestParseManifests compares for each deployment.
type summary struct {
	Name, Namespace, FlinkVersion string
	Doc                           int
	SpanText, ConfigSpanText      string
	Parallelism, Replicas         string
	UpgradeMode, Mode             string
	Entries                       []kv
	Nested                        bool
	ConfigErr                     string
}

func summarize(src []byte, deps []Deployment) []summary {
	field := func(f *Field) string {
		if f == nil {
			return "<nil>"
		}
		return f.Value + "@" + text(src, f.Span)
	}
	var out []summary
	for _, d := range deps {
		s := summary{
			Name: d.Name, Namespace: d.Namespace, FlinkVersion: d.FlinkVersion, Doc: d.Doc,
			SpanText: text(src, d.Span), ConfigSpanText: text(src, d.ConfigSpan),
			Parallelism: field(d.JobParallelism), Replicas: field(d.TaskManagerReplicas),
			UpgradeMode: field(d.UpgradeMode), Mode: field(d.Mode),
			Entries: entriesKV(d.Config.Entries), Nested: d.Config.Nested,
		}
		if d.Config.Err != nil {
			s.ConfigErr = d.Config.Err.Msg
		}
		out = append(out, s)
	}
	return out
}

// manifestCases are the table of TestParseManifests.
var manifestCases = []struct {
	name    string
	src     string
	want    []summary
	errLine int
}{
	{
		name: "skips other kinds, reads flat and nested configuration",
		src:  twoDeployments,
		want: []summary{
			{
				Name: "job-a", Namespace: "prod", FlinkVersion: "v1_17", Doc: 1,
				SpanText: `"job-a"`, ConfigSpanText: "flinkConfiguration",
				Parallelism: "4@4", Replicas: "3@3", UpgradeMode: "last-state@last-state", Mode: "native@native",
				Entries: []kv{{"taskmanager.numberOfTaskSlots", "2", kStr}, {"state.checkpoints.dir", "hdfs:///ckpt", kStr}},
			},
			{
				Name: "job-b", Doc: 2, SpanText: "job-b", ConfigSpanText: "flinkConfiguration",
				Parallelism: "<nil>", Replicas: "<nil>", UpgradeMode: "<nil>", Mode: "<nil>",
				Entries: []kv{{"execution.checkpointing.interval", "10s", kStr}, {"execution.checkpointing.timeout", "10 min", kStr}},
				Nested:  true,
			},
		},
	},
	{
		name: "no flinkConfiguration, no name",
		src:  "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nspec:\n  image: flink:1.20\n",
		want: []summary{{
			Doc: 0, SpanText: "kind: FlinkDeployment",
			Parallelism: "<nil>", Replicas: "<nil>", UpgradeMode: "<nil>", Mode: "<nil>",
		}},
	},
	{
		name: "empty flinkConfiguration",
		src:  "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {name: x}\nspec:\n  flinkConfiguration:\n",
		want: []summary{{
			Name: "x", SpanText: "x", ConfigSpanText: "flinkConfiguration",
			Parallelism: "<nil>", Replicas: "<nil>", UpgradeMode: "<nil>", Mode: "<nil>",
		}},
	},
	{
		name: "flinkConfiguration not a mapping",
		src:  "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {name: x}\nspec:\n  flinkConfiguration: [a]\n",
		want: []summary{{
			Name: "x", SpanText: "x", ConfigSpanText: "flinkConfiguration",
			Parallelism: "<nil>", Replicas: "<nil>", UpgradeMode: "<nil>", Mode: "<nil>",
			ConfigErr: "spec.flinkConfiguration must be a mapping of Flink keys to values, found a sequence",
		}},
	},
	{
		name: "duplicate key in flinkConfiguration",
		src:  "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {name: x}\nspec:\n  flinkConfiguration:\n    a: 1\n    a: 2\n",
		want: []summary{{
			Name: "x", SpanText: "x", ConfigSpanText: "flinkConfiguration",
			Parallelism: "<nil>", Replicas: "<nil>", UpgradeMode: "<nil>", Mode: "<nil>",
			Entries:   []kv{{"a", "1", kInt}},
			ConfigErr: `duplicate key "a" (first defined at line 6): Flink's YAML parser rejects duplicate keys`,
		}},
	},
	{
		name: "other apiVersion is skipped",
		src:  "apiVersion: example.com/v1\nkind: FlinkDeployment\nmetadata: {name: x}\n",
	},
	{
		name: "anchors and aliases outside the configuration",
		src: "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {name: &n x}\nspec:\n" +
			"  podTemplate: &pt {spec: {}}\n  jobManager: {podTemplate: *pt}\n  job: {parallelism: *n}\n",
		want: []summary{{
			Name: "x", SpanText: "&n x",
			Parallelism: "x@*n", Replicas: "<nil>", UpgradeMode: "<nil>", Mode: "<nil>",
		}},
	},
	{
		name: "syntax error in a later document keeps the earlier deployments",
		src: "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {name: x}\n---\n" +
			"kind: Service\nspec: [a\n",
		want: []summary{{
			Name: "x", SpanText: "x",
			Parallelism: "<nil>", Replicas: "<nil>", UpgradeMode: "<nil>", Mode: "<nil>",
		}},
		errLine: 6,
	},
	{
		name: "empty documents count",
		src:  "---\n---\napiVersion: flink.apache.org/v1\nkind: FlinkDeployment\nmetadata: {name: x}\n",
		want: []summary{{
			Name: "x", Doc: 1, SpanText: "x",
			Parallelism: "<nil>", Replicas: "<nil>", UpgradeMode: "<nil>", Mode: "<nil>",
		}},
	},
}

func TestParseManifests(t *testing.T) {
	for _, tc := range manifestCases {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			deps, _, err := ParseManifests("deploy.yaml", src)
			switch {
			case tc.errLine == 0 && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.errLine != 0 && (err == nil || err.Pos.Line != tc.errLine || err.File != "deploy.yaml"):
				t.Fatalf("error = %v, want one at line %d", err, tc.errLine)
			}
			for _, d := range deps {
				if d.Config == nil || d.Config.Path != "deploy.yaml" || d.Config.Format != parsed.FlinkDeployment {
					t.Fatalf("bad Config header %+v", d.Config)
				}
				checkFile(t, d.Config)
				for _, e := range d.Config.Entries {
					if e.Doc != d.Doc || e.File != "deploy.yaml" {
						t.Errorf("entry %q has Doc %d File %q, want %d deploy.yaml", e.Key, e.Doc, e.File, d.Doc)
					}
				}
			}
			if diff := cmp.Diff(tc.want, summarize(src, deps), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("deployments (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseManifestsNoConfigNotices(t *testing.T) {
	// yes/null/env.java.home notices belong to config.yaml; the overlap
	// notice holds for both.
	src := "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nspec:\n  flinkConfiguration:\n" +
		"    a: yes\n    b:\n    env:\n      java:\n        home: /x\n    c.d: 1\n    c:\n      d: 2\n"
	deps, _, err := ParseManifests("deploy.yaml", []byte(src))
	if err != nil || len(deps) != 1 {
		t.Fatalf("deps %d, err %v", len(deps), err)
	}
	if diff := cmp.Diff([]noticeAt{{NoticeFlatNestedOverlap, 12}}, noticesAt(deps[0].Config.Notices)); diff != "" {
		t.Errorf("notices (-want +got):\n%s", diff)
	}
}

func TestIsManifest(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want bool
	}{
		{"plain", "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\n", true},
		{"quoted with comment", "kind: \"FlinkDeployment\" # the CR\n", true},
		{"indented in a list", "items:\n  - kind: FlinkDeployment\n", false},
		{"nested kind", "spec:\n  kind: FlinkDeployment\n", true},
		{"CRLF", "kind: FlinkDeployment\r\n", true},
		{"other kind", "kind: FlinkSessionJob\n", false},
		{"config.yaml", "jobmanager:\n  rpc:\n    address: x\n", false},
		{"substring", "kind: FlinkDeploymentList\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsManifest([]byte(tc.src)); got != tc.want {
				t.Errorf("IsManifest = %v, want %v", got, tc.want)
			}
		})
	}
}

// FuzzIsManifest holds IsManifest's literal prefilter to the regular
// expression alone.
func FuzzIsManifest(f *testing.F) {
	for _, s := range []string{"kind: FlinkDeployment\n", "kind: 'FlinkDeployment' # x\r\n", "FlinkDeployment", "kind: Flink\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if got, want := IsManifest(src), manifestKind().Match(src); got != want {
			t.Fatalf("IsManifest(%q) = %v, the regular expression says %v", src, got, want)
		}
	})
}

func TestParseManifestsFieldKinds(t *testing.T) {
	src := "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nspec:\n  job:\n    parallelism: '4'\n  taskManager:\n    replicas: 2\n"
	deps, _, err := ParseManifests("d.yaml", []byte(src))
	if err != nil || len(deps) != 1 {
		t.Fatalf("deps %d, err %v", len(deps), err)
	}
	d := deps[0]
	if d.JobParallelism.Kind != parsed.KindString || d.TaskManagerReplicas.Kind != parsed.KindInt {
		t.Errorf("kinds = %s, %s; want string, int", d.JobParallelism.Kind, d.TaskManagerReplicas.Kind)
	}
	if !strings.HasPrefix(text([]byte(src), d.JobParallelism.Span), "'4'") {
		t.Errorf("parallelism span covers %q", text([]byte(src), d.JobParallelism.Span))
	}
}
