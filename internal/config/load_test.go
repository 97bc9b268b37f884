package config

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"
)

func ptr[T any](v T) *T { return &v }

// docExample returns the .ckptlint.hcl example from the package doc, so the
// documented file is tested as written.
func docExample(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	start := strings.Index(s, "// # Example")
	end := strings.Index(s, "// Every attribute is optional")
	if start < 0 || end < start {
		t.Fatal("doc.go: example section not found")
	}
	var b strings.Builder
	for _, line := range strings.Split(s[start:end], "\n") {
		switch {
		case strings.HasPrefix(line, "//\t"):
			b.WriteString(line[3:] + "\n")
		case line == "//":
			b.WriteString("\n")
		}
	}
	return b.String()
}

// writeConfig writes src as .ckptlint.hcl in a new temporary directory.
func writeConfig(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadDocExample(t *testing.T) {
	p := writeConfig(t, docExample(t))
	cfg, diags := Load(p)
	if diags.HasErrors() || len(diags.Diags) > 0 {
		var b strings.Builder
		_ = diags.Write(&b, false)
		t.Fatalf("Load(doc example) diagnostics:\n%s", b.String())
	}
	want := &Config{
		Path:          p,
		Dir:           filepath.Dir(p),
		FlinkVersion:  "1.20",
		HadoopVersion: "3.1.0",
		PolicyDirs:    []string{"policies/custom"},
		Ignore:        []string{"legacy/**", "**/test/**"},
		PathMappings:  map[string]string{"/etc/hadoop/conf": "hadoop/conf"},
		Placeholders:  "detect",
		FactsMaxAge:   ptr(30 * 24 * time.Hour),
		Clusters: []Cluster{{
			Name:                    "prod",
			Datanodes:               ptr(3),
			DatanodeFreeBytes:       ptr(int64(43 << 30)),
			DatanodeBlocks:          ptr(int64(200000000)),
			HadoopVersion:           "3.1.0",
			MinBlockSize:            ptr(int64(1 << 20)),
			WriteStall:              ptr(40 * time.Second),
			OtherWriters:            ptr(0),
			DatanodeBlocksScheduled: ptr(int64(312)),
			DatanodeHadoopVersion:   "3.3.6",
			Facts: []Facts{{
				Kind:       "namenode",
				Source:     "http://nn:9870/jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo",
				ObservedAt: time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC),
				Attributes: []string{"datanodes", "datanode_free_bytes", "datanode_blocks", "datanode_blocks_scheduled", "datanode_hadoop_version"},
			}},
		}},
		Deployments: []Deployment{{
			Name:                "etl",
			FlinkConf:           "jobs/etl/conf",
			HadoopConf:          "hadoop/client",
			ClusterHDFSSite:     "hadoop/cluster/hdfs-site.xml",
			Cluster:             "prod",
			FlinkVersion:        "1.17",
			Jobs:                ptr(4),
			StatefulOperators:   ptr(5),
			Parallelism:         ptr(12),
			TaskManagers:        ptr(3),
			SlotsPerTaskManager: ptr(4),
			CheckpointP99:       ptr(90 * time.Second),
			CheckpointSize:      ptr(int64(2 << 30)),
			StateSize:           ptr(int64(6 << 30)),
			CheckpointFailed:    ptr(int64(12)),
			Running: &RunningCheckpointing{
				JobID:             "a1b2c3d4e5f60718293a4b5c6d7e8f90",
				Interval:          ptr(3 * time.Minute),
				Timeout:           ptr(10 * time.Minute),
				MinPause:          ptr(time.Duration(0)),
				MaxConcurrent:     ptr(1),
				TolerableFailures: ptr(0),
				Unaligned:         ptr(false),
			},
			Facts: []Facts{{
				Kind:       "jobmanager",
				Source:     "http://jm:8081/jobs/a1b2c3d4e5f60718293a4b5c6d7e8f90/checkpoints",
				ObservedAt: time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC),
				Attributes: []string{"checkpoint_p99", "checkpoint_size", "checkpoint_failed", "running_checkpointing"},
			}},
		}},
		Rules: []Rule{{ID: "CKPT101", Enabled: ptr(true), Severity: "warning"}},
	}
	if diff := cmp.Diff(want, cfg, cmpopts.IgnoreTypes(hcl.Range{})); diff != "" {
		t.Errorf("Load(doc example) mismatch (-want +got):\n%s", diff)
	}
	if got := cfg.Rules[0].DefRange; got.Filename != p || got.Start.Line == 0 {
		t.Errorf("rule DefRange = %v, want a range in %s", got, p)
	}
	if diags := cfg.Validate([]string{"CKPT101"}); len(diags) > 0 {
		t.Errorf("Validate(doc example) = %v, want none", diags)
	}
}

func TestLoadVersionsNotInherited(t *testing.T) {
	src := `
flink_version  = "1.19"
hadoop_version = "3.3.6"
cluster "a" {
  datanodes = 1
}
cluster "b" {
  hadoop_version = "3.1.0"
}
deployment "x" {
  flink_conf = "conf"
}
deployment "y" {
  flink_conf    = "conf/config.yaml"
  flink_version = "2.0"
}
`
	cfg, diags := Load(writeConfig(t, src))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	got := []string{
		cfg.Clusters[0].HadoopVersion, cfg.Clusters[1].HadoopVersion,
		cfg.Deployments[0].FlinkVersion, cfg.Deployments[1].FlinkVersion,
	}
	// Blocks keep only what they say; callers apply the top-level fallback
	// so they can tell where a version came from.
	want := []string{"", "3.1.0", "", "2.0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("versions mismatch (-want +got):\n%s", diff)
	}
}

func TestLoadValues(t *testing.T) {
	tests := []struct {
		name  string
		attrs string // cluster block body
		want  Cluster
	}{
		{
			name:  "sizes as numbers",
			attrs: "datanode_free_bytes = 1024\nmin_block_size = 0",
			want:  Cluster{DatanodeFreeBytes: ptr(int64(1024)), MinBlockSize: ptr(int64(0))},
		},
		{
			// Flink 1.20 MemorySizeTest L90-96
			name:  "size 1234 bytes",
			attrs: `datanode_free_bytes = "1234 bytes"`,
			want:  Cluster{DatanodeFreeBytes: ptr(int64(1234))},
		},
		{
			// Flink 1.20 MemorySizeTest L139-145
			name:  "size upper case 1 K",
			attrs: `datanode_free_bytes = "1 K"`,
			want:  Cluster{DatanodeFreeBytes: ptr(int64(1024))},
		},
		{
			// Flink 1.20 MemorySizeTest L129-136
			name:  "size 1234567 tb",
			attrs: `datanode_free_bytes = "1234567 tb"`,
			want:  Cluster{DatanodeFreeBytes: ptr(int64(1234567) << 40)},
		},
		{
			name:  "size exponent number",
			attrs: "datanode_blocks = 2e8",
			want:  Cluster{DatanodeBlocks: ptr(int64(200000000))},
		},
		{
			// Flink 1.20 TimeUtilsTest L104-112
			name:  "duration upper case 1 MIN",
			attrs: `write_stall = "1 MIN"`,
			want:  Cluster{WriteStall: ptr(time.Minute)},
		},
		{
			// Flink 1.20 TimeUtilsTest L79-85: m is minutes
			name:  "duration m is minutes",
			attrs: `write_stall = "2m"`,
			want:  Cluster{WriteStall: ptr(2 * time.Minute)},
		},
		{
			// Flink 1.20 TimeUtilsTest L58-66: no unit is milliseconds
			name:  "duration without unit is milliseconds",
			attrs: `write_stall = "1234"`,
			want:  Cluster{WriteStall: ptr(1234 * time.Millisecond)},
		},
		{
			// Flink 1.20 TimeUtilsTest L115-118
			name:  "duration with spaces",
			attrs: `write_stall = "      155      ms   "`,
			want:  Cluster{WriteStall: ptr(155 * time.Millisecond)},
		},
		{
			name:  "zero allowed where meaningful",
			attrs: "datanode_blocks = 0\nother_writers = 0",
			want:  Cluster{DatanodeBlocks: ptr(int64(0)), OtherWriters: ptr(0)},
		},
		{
			name:  "null is unset",
			attrs: "datanodes = null\nwrite_stall = null",
			want:  Cluster{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := Load(writeConfig(t, "cluster \"c\" {\n"+tt.attrs+"\n}\n"))
			if len(diags.Diags) > 0 {
				t.Fatal(diags.Err())
			}
			tt.want.Name = "c"
			if diff := cmp.Diff([]Cluster{tt.want}, cfg.Clusters, cmpopts.IgnoreTypes(hcl.Range{})); diff != "" {
				t.Errorf("clusters mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// wantDiag is the part of a diagnostic a test pins down.
type wantDiag struct {
	Summary string
	Line    int    // subject start line; 0 for no subject
	Detail  string // a substring of the detail
}

func summarize(diags hcl.Diagnostics, want []wantDiag) []wantDiag {
	if len(diags) == 0 {
		return nil
	}
	got := make([]wantDiag, len(diags))
	for i, d := range diags {
		got[i] = wantDiag{Summary: d.Summary}
		if d.Subject != nil {
			got[i].Line = d.Subject.Start.Line
		}
		got[i].Detail = d.Detail
		if i < len(want) && strings.Contains(d.Detail, want[i].Detail) {
			got[i].Detail = want[i].Detail
		}
	}
	return got
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []wantDiag
	}{
		{
			name: "syntax: unclosed block",
			src:  "cluster \"prod\" {\n  datanodes = 3\n",
			want: []wantDiag{{"Unclosed configuration block", 1, "no closing brace"}},
		},
		{
			name: "syntax: single-line block with two arguments",
			src:  "rule \"CKPT101\" { enabled = true  severity = \"info\" }\n",
			want: []wantDiag{{"Invalid single-argument block definition", 1, "single-line block"}},
		},
		{
			name: "unknown attribute with suggestion",
			src:  "cluster \"prod\" {\n  datanode = 3\n}\n",
			want: []wantDiag{{"Unsupported argument", 2, `Did you mean "datanodes"?`}},
		},
		{
			name: "unknown top-level attribute with suggestion",
			src:  "policy_dir = [\"p\"]\n",
			want: []wantDiag{{"Unsupported argument", 1, `Did you mean "policy_dirs"?`}},
		},
		{
			name: "facts: bad observed_at",
			src:  "cluster \"prod\" {\n  datanodes = 3\n  facts \"namenode\" {\n    source = \"nn.json\"\n    observed_at = \"2026-12-01 08:00\"\n    attributes = [\"datanodes\"]\n  }\n}\n",
			want: []wantDiag{{"Invalid observed_at", 5, `is not an RFC 3339 time; write it as "2026-12-01T08:00:00Z"`}},
		},
		{
			name: "facts: unknown attribute with suggestion",
			src:  "cluster \"prod\" {\n  datanodes = 3\n  facts \"namenode\" {\n    source = \"nn.json\"\n    observed_at = \"2026-12-01T08:00:00Z\"\n    attributes = [\"datanodes\", \"datanode\"]\n  }\n}\n",
			want: []wantDiag{{"Unknown fact attribute", 6, `The facts attributes name "datanode", which is not an attribute of a cluster block that facts describe. Did you mean "datanodes"?`}},
		},
		{
			name: "facts: deployment attribute in a cluster",
			src:  "cluster \"prod\" {\n  facts \"jobmanager\" {\n    source = \"jm.json\"\n    observed_at = \"2026-12-01T08:00:00Z\"\n    attributes = [\"running_checkpointing\"]\n  }\n}\n",
			want: []wantDiag{{"Unknown fact attribute", 5, `A cluster block's facts may name "datanodes", `}},
		},
		{
			name: "facts: attribute not set",
			src:  "deployment \"etl\" {\n  flink_conf = \"conf\"\n  facts \"jobmanager\" {\n    source = \"jm.json\"\n    observed_at = \"2026-12-01T08:00:00Z\"\n    attributes = [\"checkpoint_p99\"]\n  }\n}\n",
			want: []wantDiag{{"Fact attribute not set", 6, `"checkpoint_p99", which this deployment block does not set`}},
		},
		{
			name: "facts: attribute listed twice",
			src:  "cluster \"prod\" {\n  datanodes = 3\n  facts \"namenode\" {\n    source = \"nn.json\"\n    observed_at = \"2026-12-01T08:00:00Z\"\n    attributes = [\"datanodes\"]\n  }\n  facts \"dfsadmin\" {\n    source = \"report.txt\"\n    observed_at = \"2026-12-01T08:00:00Z\"\n    attributes = [\"datanodes\"]\n  }\n}\n",
			want: []wantDiag{{"Duplicate fact attribute", 11, `The attribute "datanodes" is already listed at`}},
		},
		{
			name: "facts: unknown kind",
			src:  "cluster \"prod\" {\n  facts \"name-node\" {\n    source = \"nn.json\"\n    observed_at = \"2026-12-01T08:00:00Z\"\n    attributes = []\n  }\n}\n",
			want: []wantDiag{{"Unknown fact source", 2, `Did you mean "namenode"?`}},
		},
		{
			name: "facts: credentials in source",
			src:  "cluster \"prod\" {\n  facts \"namenode\" {\n    source = \"http://admin:secret@nn:9870/jmx\"\n    observed_at = \"2026-12-01T08:00:00Z\"\n    attributes = []\n  }\n}\n",
			want: []wantDiag{{"Credentials in facts source", 3, "holds a user name or password (admin@)"}},
		},
		{
			name: "facts: missing observed_at",
			src:  "cluster \"prod\" {\n  facts \"namenode\" {\n    source = \"nn.json\"\n    attributes = []\n  }\n}\n",
			want: []wantDiag{{"Missing required argument", 2, `"observed_at" is required`}},
		},
		{
			name: "running_checkpointing: bad values and a second block",
			src:  "deployment \"etl\" {\n  flink_conf = \"conf\"\n  running_checkpointing {\n    interval = 180000\n    max_concurrent = 0\n  }\n  running_checkpointing {\n  }\n}\n",
			want: []wantDiag{
				{"Unsuitable value type", 4, "The interval must be a duration string with a unit"},
				{"Invalid value", 5, "The max_concurrent must be at least 1; got 0."},
				{"Duplicate running_checkpointing block", 7, "at most one running_checkpointing block"},
			},
		},
		{
			name: "facts_max_age: zero",
			src:  "facts_max_age = \"0s\"\n",
			want: []wantDiag{{"Invalid duration", 1, "The facts_max_age must be more than zero"}},
		},
		{
			name: "datanode_hadoop_version: not a version",
			src:  "cluster \"prod\" {\n  datanode_hadoop_version = \"3.3.6-cdh\"\n}\n",
			want: []wantDiag{{"Invalid version", 2, `The datanode_hadoop_version "3.3.6-cdh" is not a version`}},
		},
		{
			name: "unknown block with suggestion",
			src:  "clusters \"prod\" {\n}\n",
			want: []wantDiag{{"Unsupported block type", 1, `Did you mean "cluster"?`}},
		},
		{
			name: "missing block label",
			src:  "rule {\n  enabled = false\n}\n",
			want: []wantDiag{{"Missing id for rule", 1, "id"}},
		},
		{
			name: "wrong type: string count",
			src:  "cluster \"prod\" {\n  taskmanagers = \"twenty\"\n}\n",
			want: []wantDiag{{"Unsuitable value type", 2, "The taskmanagers must be a whole number; got a string."}},
		},
		{
			name: "wrong type: fractional count",
			src:  "cluster \"prod\" {\n  datanodes = 2.5\n}\n",
			want: []wantDiag{{"Invalid value", 2, "The datanodes must be a whole number; got 2.5."}},
		},
		{
			name: "wrong type: bool severity is fine but list is not",
			src:  "rule \"CKPT101\" {\n  severity = [\"info\"]\n}\n",
			want: []wantDiag{{"Unsuitable value type", 2, "string required"}},
		},
		{
			name: "wrong type: ignore not a list",
			src:  "ignore = { a = 1 }\n",
			want: []wantDiag{{"Unsuitable value type", 1, "list of string required"}},
		},
		{
			name: "variables not allowed",
			src:  "rule \"CKPT101\" {\n  enabled = yes\n}\n",
			want: []wantDiag{{"Variables not allowed", 2, "Variables may not be used here"}},
		},
		{
			// Flink 1.20 MemorySizeTest L154-182: "16 gjah" is invalid
			name: "bad size unit",
			src:  "cluster \"prod\" {\n  datanode_free_bytes = \"16 gjah\"\n}\n",
			want: []wantDiag{{"Invalid size", 2, `Cannot read "16 gjah" as the datanode_free_bytes`}},
		},
		{
			// Flink 1.20 MemorySizeTest L154-182: "-100 bytes" is invalid
			name: "negative size string",
			src:  "cluster \"prod\" {\n  min_block_size = \"-100 bytes\"\n}\n",
			want: []wantDiag{{"Invalid size", 2, `Cannot read "-100 bytes" as the min_block_size`}},
		},
		{
			name: "negative size number",
			src:  "cluster \"prod\" {\n  min_block_size = -1\n}\n",
			want: []wantDiag{{"Invalid size", 2, "must not be negative; got -1"}},
		},
		{
			name: "fractional size number",
			src:  "cluster \"prod\" {\n  datanode_free_bytes = 1.5\n}\n",
			want: []wantDiag{{"Invalid size", 2, "whole number of bytes"}},
		},
		{
			name: "size out of range",
			src:  "cluster \"prod\" {\n  datanode_free_bytes = 1e30\n}\n",
			want: []wantDiag{{"Invalid size", 2, "does not fit in 64 bits"}},
		},
		{
			name: "size of wrong type",
			src:  "cluster \"prod\" {\n  datanode_free_bytes = true\n}\n",
			want: []wantDiag{{"Unsuitable value type", 2, "got a bool"}},
		},
		{
			// Flink 1.20 TimeUtils: ISO-8601 is not accepted
			name: "bad duration ISO-8601",
			src:  "deployment \"etl\" {\n  flink_conf = \"c\"\n  checkpoint_p99 = \"PT10M\"\n}\n",
			want: []wantDiag{{"Invalid duration", 3, `Cannot read "PT10M" as the checkpoint_p99`}},
		},
		{
			// Flink 1.20 TimeUtils.parseDuration: decimals are not accepted
			name: "bad duration decimal",
			src:  "cluster \"prod\" {\n  write_stall = \"1.5 min\"\n}\n",
			want: []wantDiag{{"Invalid duration", 2, `Cannot read "1.5 min" as the write_stall`}},
		},
		{
			name: "duration as number",
			src:  "cluster \"prod\" {\n  write_stall = 40\n}\n",
			want: []wantDiag{{"Unsuitable value type", 2, "duration string with a unit"}},
		},
		{
			name: "bad top-level version",
			src:  "flink_version = \"1.20-SNAPSHOT\"\n",
			want: []wantDiag{{"Invalid version", 1, `The flink_version "1.20-SNAPSHOT" is not a version`}},
		},
		{
			name: "bad placeholders mode",
			src:  "placeholders = \"rendered\"\n",
			want: []wantDiag{{"Invalid placeholders mode", 1, `placeholders is "rendered"; write "detect"`}},
		},
		{
			name: "bad version without minor",
			src:  "hadoop_version = \"3\"\n",
			want: []wantDiag{{"Invalid version", 1, `such as "3.1.0"`}},
		},
		{
			name: "bad cluster version",
			src:  "cluster \"prod\" {\n  hadoop_version = \"v3.1.0\"\n}\n",
			want: []wantDiag{{"Invalid version", 2, `"v3.1.0"`}},
		},
		{
			name: "bad deployment version",
			src:  "deployment \"etl\" {\n  flink_conf = \"c\"\n  flink_version = \"1.17.0.1\"\n}\n",
			want: []wantDiag{{"Invalid version", 3, `"1.17.0.1"`}},
		},
		{
			name: "count too large",
			src:  "cluster \"prod\" {\n  taskmanagers = 3000000000\n}\n",
			want: []wantDiag{{"Invalid value", 2, "at most 2147483647; got 3000000000"}},
		},
		{
			name: "count far too large",
			src:  "cluster \"prod\" {\n  datanode_blocks = 1e20\n}\n",
			want: []wantDiag{{"Invalid value", 2, "at most 9223372036854775807; got 100000000000000000000"}},
		},
		{
			name: "count of wrong type",
			src:  "deployment \"etl\" {\n  flink_conf = \"c\"\n  jobs = [1]\n}\n",
			want: []wantDiag{{"Unsuitable value type", 3, "got a tuple"}},
		},
		{
			name: "zero datanodes",
			src:  "cluster \"prod\" {\n  datanodes = 0\n}\n",
			want: []wantDiag{{"Invalid value", 2, "The datanodes must be at least 1; got 0."}},
		},
		{
			name: "negative other writers",
			src:  "cluster \"prod\" {\n  other_writers = -2\n}\n",
			want: []wantDiag{{"Invalid value", 2, "at least 0; got -2"}},
		},
		{
			name: "zero counts in deployment",
			src:  "deployment \"etl\" {\n  flink_conf = \"c\"\n  jobs = 0\n  stateful_operators = 0\n  parallelism = -1\n}\n",
			want: []wantDiag{
				{"Invalid value", 3, "jobs must be at least 1"},
				{"Invalid value", 4, "stateful_operators must be at least 1"},
				{"Invalid value", 5, "parallelism must be at least 1"},
			},
		},
		{
			name: "missing flink_conf",
			src:  "deployment \"etl\" {\n  cluster = \"prod\"\n}\n",
			want: []wantDiag{{"Missing required argument", 1, `"flink_conf" is required`}},
		},
		{
			name: "empty paths",
			src:  "policy_dirs = [\"\"]\ndeployment \"etl\" {\n  flink_conf = \"\"\n  hadoop_conf = \"\"\n}\n",
			want: []wantDiag{
				{"Empty value", 1, "policy directory must not be empty"},
				{"Empty value", 3, "flink_conf must not be empty"},
				{"Empty value", 4, "hadoop_conf must not be empty"},
			},
		},
		{
			name: "bad severity with suggestion",
			src:  "rule \"CKPT101\" {\n  severity = \"warn\"\n}\n",
			want: []wantDiag{{"Invalid severity", 2, `Did you mean "warning"?`}},
		},
		{
			name: "bad severity case",
			src:  "rule \"CKPT101\" {\n  severity = \"ERROR\"\n}\n",
			want: []wantDiag{{"Invalid severity", 2, `Did you mean "error"?`}},
		},
		{
			name: "bad glob",
			src:  "ignore = [\"ok/**\", \"bad/[\"]\n",
			want: []wantDiag{{"Invalid glob pattern", 1, `"bad/[" is not valid: syntax error in pattern`}},
		},
		{
			name: "empty glob",
			src:  "ignore = [\n  \"a\",\n  \"\",\n]\n",
			want: []wantDiag{{"Invalid glob pattern", 3, "names no path"}},
		},
		{
			name: "path mapping key not absolute",
			src:  "path_mappings = {\n  \"etc/hadoop\" = \"hadoop\"\n}\n",
			want: []wantDiag{{"Invalid path mapping", 2, `"etc/hadoop" must be absolute`}},
		},
		{
			name: "path mapping value absolute",
			src:  "path_mappings = {\n  \"/etc/hadoop\" = \"/srv/hadoop\"\n}\n",
			want: []wantDiag{{"Invalid path mapping", 2, "must be a directory relative"}},
		},
		{
			name: "path mapping value empty",
			src:  "path_mappings = {\n  \"/etc/hadoop\" = \"\"\n}\n",
			want: []wantDiag{{"Invalid path mapping", 2, "empty directory"}},
		},
		{
			name: "several errors in file order",
			src:  "cluster \"prod\" {\n  write_stall = \"soon\"\n  datanode = 3\n  datanodes = 0\n}\n",
			want: []wantDiag{
				{"Invalid duration", 2, `"soon"`},
				{"Unsupported argument", 3, `An argument named "datanode" is not expected here.`},
				{"Invalid value", 4, "at least 1"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := Load(writeConfig(t, tt.src))
			if cfg == nil || diags == nil {
				t.Fatal("Load returned nil")
			}
			if !diags.HasErrors() || diags.Err() == nil {
				t.Errorf("HasErrors() = false, want true")
			}
			if diff := cmp.Diff(tt.want, summarize(diags.Diags, tt.want)); diff != "" {
				t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadUnreadable(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.hcl")
	if err := os.WriteFile(big, make([]byte, MaxConfigSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		want wantDiag
	}{
		{"missing file", filepath.Join(t.TempDir(), "nope.hcl"), wantDiag{"Failed to read file", 0, "no such file or directory"}},
		{"directory", t.TempDir(), wantDiag{"Failed to read file", 0, "could not be read"}},
		{"too large", big, wantDiag{"File too large", 0, "larger than 1 MiB"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := Load(tt.path)
			if cfg == nil || cfg.Path != tt.path {
				t.Fatalf("Load(%q) config = %+v, want Path set", tt.path, cfg)
			}
			want := []wantDiag{tt.want}
			if diff := cmp.Diff(want, summarize(diags.Diags, want)); diff != "" {
				t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
			}
			var b strings.Builder
			if err := diags.Write(&b, false); err != nil || !strings.Contains(b.String(), tt.want.Summary) {
				t.Errorf("Write() = %q, %v", b.String(), err)
			}
		})
	}
}

func TestNilReceivers(t *testing.T) {
	var c *Config
	var d *Diagnostics
	if c.Ignored("a") || c.ClusterByName("a") != nil || c.RuleByID("a") != nil || c.Validate(nil) != nil {
		t.Error("nil *Config methods should report nothing")
	}
	if d.HasErrors() || d.Err() != nil || d.Write(nil, false) != nil {
		t.Error("nil *Diagnostics methods should report nothing")
	}
}

// TestParseLimits: nesting that would overflow hcl/v2's recursive parser
// is refused before it parses, with a diagnostic naming the file and line.
func TestParseLimits(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"100k brackets", "x = " + strings.Repeat("[", 100_000), "brackets, braces or template sequences"},
		{"nested blocks", strings.Repeat("a {\n", MaxConfigNesting+1), "brackets, braces or template sequences"},
		{"template interpolations", "x = \"" + strings.Repeat("${\"", 100), "brackets, braces or template sequences"},
		{"unary chain", "x = " + strings.Repeat("!", 100_000) + "true", "operators in a row"},
		{"conditional chain", "x = " + strings.Repeat("true ? 1 : ", 10_000) + "2", "conditional expressions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Parse("deep.hcl", []byte(tt.src))
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			d := diags.Diags[0]
			if d.Summary != "Nested too deeply" || !strings.Contains(d.Detail, tt.want) || !strings.Contains(d.Detail, "deep.hcl") || d.Subject == nil {
				t.Errorf("got %s: %s (subject %v), want Nested too deeply / %q", d.Summary, d.Detail, d.Subject, tt.want)
			}
		})
	}
	// A real file with its blocks and lists is well inside the limits.
	if _, diags := Parse("ok.hcl", []byte("cluster \"a\" {\n  datanodes = 3\n}\nignore = [\"x/**\"]\n")); diags.HasErrors() {
		t.Errorf("a small file is refused: %v", diags.Diags)
	}
}

// TestWriteCapsDiagnostics: a file with hundreds of mistakes renders the
// first maxWritten with snippets and counts the rest (hcl's writer rescans
// the file per snippet; docs/security.md).
func TestWriteCapsDiagnostics(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".ckptlint.hcl")
	if err := os.WriteFile(p, []byte(strings.Repeat("cluster \"c\" {\n  datanodes = 3\n}\n", 300)), 0o644); err != nil {
		t.Fatal(err)
	}
	c, diags := Load(p)
	if c != nil {
		diags.Append(c.Validate(nil)...)
	}
	if len(diags.Diags) <= maxWritten {
		t.Fatalf("want more than %d diagnostics for 300 duplicate cluster blocks, got %d", maxWritten, len(diags.Diags))
	}
	var b strings.Builder
	if err := diags.Write(&b, false); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(b.String(), "\nError: ") + strings.Count(b.String()[:min(7, b.Len())], "Error: "); got != maxWritten {
		t.Errorf("rendered %d diagnostics, want %d", got, maxWritten)
	}
	want := "... and " + strconv.Itoa(len(diags.Diags)-maxWritten) + " more diagnostic(s) not shown"
	if !strings.Contains(b.String(), want) {
		t.Errorf("output lacks %q", want)
	}
}
