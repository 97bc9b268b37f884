package generate

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/units"
	"github.com/ckptlint/ckptlint/lint"
)

var update = flag.Bool("update", false, "rewrite golden files")

// updating reports whether the test binary runs with -update.
func updating() bool { return *update }

// storyA is a story-(a)-like cluster: 3 nodes each running a TaskManager and
// a DataNode with 43 GiB free, 6 jobs x parallelism 24 x 8 stateful
// operators, Hadoop 2.7.3, Flink 1.13. The deployment points at the files
// generate writes into out/, so lint reads them with the same facts.
const storyA = `
flink_version  = "1.13"
hadoop_version = "2.7.3"

cluster "test" {
  datanodes             = 3
  datanode_free_bytes   = "43g"
  taskmanagers          = 3
  slots_per_taskmanager = 48
}

deployment "streaming" {
  flink_conf         = "out"
  hadoop_conf        = "out"
  cluster_hdfs_site  = "out/datanode/hdfs-site.xml"
  cluster            = "test"
  jobs               = 6
  stateful_operators = 8
  parallelism        = 24
}
`

// storyB is a story-(b)-like cluster: Hadoop 3.1.0 without the
// DirectoryScanner lock fixes, 200 million block replicas per DataNode, a
// measured 40 s write stall and a 90 s p99 checkpoint duration.
const storyB = `
hadoop_version = "3.1.0"

cluster "b" {
  datanodes             = 10
  datanode_free_bytes   = "2t"
  datanode_blocks       = 200000000
  taskmanagers          = 8
  slots_per_taskmanager = 4
  write_stall           = "40s"
}

deployment "etl" {
  flink_conf        = "out"
  hadoop_conf       = "out"
  cluster_hdfs_site = "out/datanode/hdfs-site.xml"
  cluster           = "b"
  flink_version     = "1.17"
  jobs              = 2
  checkpoint_p99    = "90s"
}
`

// tight has too little free space for both 16 GiB files (CKPT105) and 10x
// scheduled-space headroom (CKPT101): the block size keeps the headroom.
const tight = `
flink_version  = "1.20"
hadoop_version = "3.3.6"

cluster "small" {
  datanodes           = 4
  datanode_free_bytes = "10g"
}

deployment "many" {
  flink_conf         = "out"
  hadoop_conf        = "out"
  cluster_hdfs_site  = "out/datanode/hdfs-site.xml"
  jobs               = 4
  stateful_operators = 10
  parallelism        = 32
}
`

// observed is what `ckptlint facts` writes for a running cluster (issue 24):
// the DataNodes' own version beside the client's, blocks already scheduled,
// and per deployment the Flink cluster's TaskManagers and slots, the
// checkpoint statistics and the running job's checkpoint settings. generate
// uses every one of them.
const observed = `
hadoop_version = "3.1.0"

cluster "obs" {
  datanodes                 = 6
  datanode_free_bytes       = "43g"
  datanode_blocks           = 3100000
  datanode_blocks_scheduled = 312
  datanode_hadoop_version   = "3.3.4"
  facts "namenode" {
    source      = "nn.json"
    observed_at = "2026-12-01T08:00:00Z"
    attributes  = ["datanodes", "datanode_free_bytes", "datanode_blocks", "datanode_blocks_scheduled", "datanode_hadoop_version"]
  }
}

deployment "orders" {
  flink_conf            = "out"
  hadoop_conf           = "out"
  cluster_hdfs_site     = "out/datanode/hdfs-site.xml"
  cluster               = "obs"
  flink_version         = "1.18"
  taskmanagers          = 4
  slots_per_taskmanager = 2
  checkpoint_p99        = "41230ms"
  checkpoint_size       = "1t"
  state_size            = "150g"
  checkpoint_failed     = 12
  running_checkpointing {
    job_id             = "3a1b2c3d4e5f60718293a4b5c6d7e8f9"
    interval           = "3m"
    timeout            = "30m"
    min_pause          = "5s"
    max_concurrent     = 1
    tolerable_failures = 3
    unaligned          = true
  }
  facts "jobmanager" {
    source      = "overview.json, checkpoints.json, config.json, subtasks.json"
    observed_at = "2026-12-01T08:00:00Z"
    attributes  = ["taskmanagers", "slots_per_taskmanager", "checkpoint_p99", "checkpoint_size", "state_size", "checkpoint_failed", "running_checkpointing"]
  }
}
`

// bare declares a cluster and nothing else: no versions, no deployment.
const bare = `
cluster "prod" {
  datanodes = 5
}
`

type starterCase struct {
	name, hcl   string
	opts        StarterOptions
	lintVersion lint.Versions
	files       []string // expected paths, in order
	warnings    []string // rule ids allowed (and expected) at warning level
	notes       []string // substrings expected among the notes
}

var starterCases = []starterCase{
	{name: "story-a-flink-1.13", hcl: storyA, opts: StarterOptions{Deployment: "streaming"},
		files: []string{"flink-conf.yaml", "hdfs-site.xml", "datanode/hdfs-site.xml"}},
	{name: "story-a-flink-1.20", hcl: storyA, opts: StarterOptions{Deployment: "streaming", FlinkVersion: "1.20"},
		lintVersion: lint.Versions{Flink: "1.20"},
		files:       []string{"config.yaml", "hdfs-site.xml", "datanode/hdfs-site.xml"}},
	{name: "story-b-scanner", hcl: storyB, opts: StarterOptions{Deployment: "etl"},
		files: []string{"flink-conf.yaml", "hdfs-site.xml", "datanode/hdfs-site.xml"}},
	// CKPT105 reports the capped file size as an info: no state_size says a
	// subtask comes near it (issue 23); the note still says to raise the limit.
	{name: "tight-cluster", hcl: tight, opts: StarterOptions{Cluster: "small", Deployment: "many"},
		files: []string{"config.yaml", "hdfs-site.xml", "datanode/hdfs-site.xml"},
		notes: []string{"raise dfs.namenode.fs-limits.max-blocks-per-file on the NameNode to at least 16384"}},
	{name: "observed-facts", hcl: observed, opts: StarterOptions{Deployment: "orders"},
		files:    []string{"flink-conf.yaml", "hdfs-site.xml", "datanode/hdfs-site.xml"},
		warnings: []string{"CKPT610"},
		notes: []string{
			"the running job 3a1b2c3d4e5f60718293a4b5c6d7e8f9 checkpoints with interval 3 min, timeout 30 min, min-pause 5 s, unaligned true (running_checkpointing of deployment \"orders\")",
			"one checkpoint file must be able to reach twice the 150 GiB of state of the largest subtask (state_size of deployment \"orders\"; CKPT105 warns from half the cap), more than the 78.1 GiB one file can reach at dfs.blocksize 8m",
		}},
	{name: "bare-cluster", hcl: bare,
		files: []string{"config.yaml", "hdfs-site.xml", "datanode/hdfs-site.xml"},
		notes: []string{"no Flink version is declared: generated for Flink 2.0", "no Hadoop version is declared: generated for Hadoop 3.4.1"}},
}

// generateInto writes the case's .ckptlint.hcl into a new directory and the
// starter config set into out/ below it, and returns the directory and the config.
func generateInto(t *testing.T, c starterCase) (string, *config.Config, *Starter) {
	t.Helper()
	dir := t.TempDir()
	hcl := filepath.Join(dir, config.FileName)
	if err := os.WriteFile(hcl, []byte(c.hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := linttest.LoadConfig(t, dir)
	opts := c.opts
	opts.Config = cfg
	b, err := NewStarter(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range b.Files {
		p := filepath.Join(dir, "out", filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, cfg, b
}

// TestStarterGolden checks every generated file byte for byte against
// testdata/starter/<case>/, and the notes against notes.txt.
func TestStarterGolden(t *testing.T) {
	for _, c := range starterCases {
		t.Run(c.name, func(t *testing.T) {
			_, _, b := generateInto(t, c)
			var paths []string
			for _, f := range b.Files {
				paths = append(paths, f.Path)
				golden(t, filepath.Join("testdata", "starter", c.name, filepath.FromSlash(f.Path)), f.Content)
			}
			if diff := cmp.Diff(c.files, paths); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			golden(t, filepath.Join("testdata", "starter", c.name, "notes.txt"), []byte(strings.Join(b.Notes, "\n")+"\n"))
			for _, n := range c.notes {
				if !slices.ContainsFunc(b.Notes, func(s string) bool { return strings.Contains(s, n) }) {
					t.Errorf("no note contains %q; notes:\n%s", n, strings.Join(b.Notes, "\n"))
				}
			}
		})
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./generate -run TestStarterGolden -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// TestStarterLintsClean generates each case into a directory whose
// .ckptlint.hcl (the same facts generate used) points a deployment at the
// generated files, lints the directory with the embedded rules and asserts
// that nothing reaches error, and that only the case's expected rules warn.
func TestStarterLintsClean(t *testing.T) {
	e := linttest.Engine(t)
	for _, c := range starterCases {
		t.Run(c.name, func(t *testing.T) {
			dir, cfg, b := generateInto(t, c)
			res := linttest.Lint(t, e, dir, lint.Options{Config: cfg, Versions: c.lintVersion})
			if res.Files != len(b.Files) {
				t.Errorf("lint read %d files, want the %d generated", res.Files, len(b.Files))
			}
			var warned []string
			for _, f := range res.Findings {
				switch f.Severity {
				case finding.Error:
					t.Errorf("error: %s", f)
				case finding.Warning:
					warned = append(warned, f.RuleID)
					if !slices.Contains(c.warnings, f.RuleID) {
						t.Errorf("unexpected warning: %s", f)
					}
				default:
					t.Logf("info: %s", f)
				}
			}
			for _, id := range c.warnings {
				if !slices.Contains(warned, id) {
					t.Errorf("expected a %s warning (the compromise the notes explain), got none", id)
				}
			}
		})
	}
}

// TestStarterLintsCleanOnEveryVersion generates the story (a) cluster for
// every Flink line from 1.10 and Hadoop releases on both sides of the
// DirectoryScanner fixes, and lints each with the version declared: key
// spellings, file format and values must suit each version (no error, no
// warning).
func TestStarterLintsCleanOnEveryVersion(t *testing.T) {
	e := linttest.Engine(t)
	flinks := []string{"1.10", "1.11", "1.12", "1.13", "1.14", "1.15", "1.16", "1.17", "1.18", "1.19", "1.20", "2.0", "2.1"}
	hadoops := []string{"2.7.3", "2.10.1", "3.1.0", "3.2.2", "3.3.0", "3.4.1"}
	hcl := strings.Replace(storyA, `datanode_free_bytes   = "43g"`, `datanode_free_bytes   = "43g"
  datanode_blocks       = 5000000`, 1)
	for _, fv := range flinks {
		for _, hv := range hadoops {
			t.Run(fv+"/"+hv, func(t *testing.T) {
				c := starterCase{hcl: hcl, opts: StarterOptions{Deployment: "streaming", FlinkVersion: fv, HadoopVersion: hv}}
				dir, cfg, _ := generateInto(t, c)
				res := linttest.Lint(t, e, dir, lint.Options{Config: cfg, Versions: lint.Versions{Flink: fv, Hadoop: hv}})
				for _, f := range res.Findings {
					if f.Severity >= finding.Warning {
						t.Errorf("%s", f)
					}
				}
			})
		}
	}
}

func parse(t *testing.T, hcl string) *config.Config {
	t.Helper()
	cfg, diags := config.Parse(filepath.Join(t.TempDir(), config.FileName), []byte(hcl))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	return cfg
}

func TestNewStarterRefuses(t *testing.T) {
	two := storyA + "\ncluster \"other\" {\n  datanodes = 4\n}\n"
	tests := []struct {
		name, hcl string
		opts      StarterOptions
		want      string
	}{
		{"no cluster block", `flink_version = "1.20"`, StarterOptions{}, "name the cluster to generate for with --cluster (it declares none)"},
		{"two clusters, none named", two, StarterOptions{}, `name the cluster to generate for with --cluster (declared: "test", "other")`},
		{"unknown cluster", storyA, StarterOptions{Cluster: "prod"}, `no cluster "prod" in .ckptlint.hcl (declared: "test")`},
		{"unknown deployment", storyA, StarterOptions{Deployment: "etl"}, `no deployment "etl" in .ckptlint.hcl (declared: "streaming")`},
		{"cluster contradicts deployment", two, StarterOptions{Cluster: "other", Deployment: "streaming"}, `--cluster other, but deployment "streaming" runs on cluster "test"`},
		{"bad version flag", storyA, StarterOptions{FlinkVersion: "latest"}, `--flink-version: version "latest" is not major.minor[.patch]`},
		{"flink too old", storyA, StarterOptions{FlinkVersion: "1.9"}, "Flink 1.9: ckptlint generate writes configurations for Flink 1.10 to 2.x"},
		{"flink too new", storyA, StarterOptions{FlinkVersion: "3.0"}, "Flink 3.0: ckptlint generate writes"},
		{"hadoop 1", storyA, StarterOptions{HadoopVersion: "1.2.1"}, "Hadoop 1.2.1: ckptlint generate writes configurations for Hadoop 2.x and 3.x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.Config = parse(t, tt.hcl)
			_, err := NewStarter(opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

// TestBlocksizeChoice covers the three outcomes of the block-size search
// and the case without DataNode facts.
func TestBlocksizeChoice(t *testing.T) {
	tests := []struct {
		name, cluster, deployment string
		want                      string // Hadoop size written
		why, note                 string // substrings of the comment and of a note ("" none)
	}{
		{"largest round size with 10x headroom", `datanodes = 3
  datanode_free_bytes = "43g"`, `jobs = 6
  stateful_operators = 8
  parallelism = 24`, "2m", "19.1x the about 1152 checkpoint files", ""},
		{"roomy cluster keeps Hadoop's 128 MiB", `datanodes = 3
  datanode_free_bytes = "43g"
  min_block_size = "4m"`, `parallelism = 4`, "128m", "Hadoop's default, written down", ""},
		{"NameNode minimum off the ladder", `datanodes = 3
  datanode_free_bytes = "43g"
  min_block_size = "3m"`, `jobs = 6
  stateful_operators = 8
  parallelism = 24`, "3m", "the largest of 128m, 64m, ... 1m at which each DataNode can schedule 14677 blocks", ""},
		{"headroom wins over file size", `datanodes = 4
  datanode_free_bytes = "10g"`, `jobs = 4
  stateful_operators = 10
  parallelism = 32`, "1m", "it caps one file at 1 MiB x 10000", "to at least 16384"},
		{"no round size keeps 10x", `datanodes = 1
  datanode_free_bytes = "1g"`, `jobs = 2
  stateful_operators = 4
  parallelism = 50`, "1m", "no round size keeps 10x", "1m leaves 2.6x"},
		{"not even the minimum keeps 2x", `datanodes = 1
  datanode_free_bytes = "1g"`, `jobs = 2
  stateful_operators = 4
  parallelism = 80`, "1m", "the smallest block size the NameNode accepts", "only 1.6x the checkpoint files in flight"},
		{"other writers count", `datanodes = 1
  datanode_free_bytes = "1g"
  other_writers = 100`, `parallelism = 1`, "1m", "10.1x the about 101 checkpoint files in flight per DataNode (1 job(s) x parallelism 1 x 1 stateful operator(s) x 1 concurrent checkpoint = 1 files, x 1 replica(s) over 1 DataNodes, + 100 other writers)", "to at least 16384"},
		{"no DataNode facts", `taskmanagers = 2`, `parallelism = 2`, "128m", "Declare datanodes and datanode_free_bytes", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hcl := "flink_version = \"1.20\"\nhadoop_version = \"3.4.1\"\ncluster \"c\" {\n  " + tt.cluster + "\n}\ndeployment \"d\" {\n  flink_conf = \"conf\"\n  " + tt.deployment + "\n}\n"
			p, err := newPlan(StarterOptions{Config: parse(t, hcl), Deployment: "d"})
			if err != nil {
				t.Fatal(err)
			}
			bs, why := p.blocksize()
			if got := units.HadoopBytesString(bs); got != tt.want {
				t.Errorf("dfs.blocksize = %s, want %s (%s)", got, tt.want, why)
			}
			if !strings.Contains(why, tt.why) {
				t.Errorf("comment %q does not contain %q", why, tt.why)
			}
			notes := strings.Join(p.notes, "\n")
			if tt.note == "" && notes != "" && strings.Contains(notes, "dfs.blocksize") {
				t.Errorf("unexpected note: %s", notes)
			}
			if !strings.Contains(notes, tt.note) {
				t.Errorf("notes %q do not contain %q", notes, tt.note)
			}
		})
	}
}

func TestParallelism(t *testing.T) {
	tests := []struct {
		name, cluster, deployment string
		write, counted            int
		note                      string
	}{
		{"declared and fits", "taskmanagers = 3\n  slots_per_taskmanager = 48", "jobs = 6\n  parallelism = 24", 24, 24, ""},
		{"declared, too wide: capped, lint still counts it", "taskmanagers = 2\n  slots_per_taskmanager = 4", "jobs = 2\n  parallelism = 8", 4, 8, "ckptlint lint reports the declared parallelism (CKPT401)"},
		{"from the slots", "taskmanagers = 8\n  slots_per_taskmanager = 4", "jobs = 3", 10, 10, ""},
		{"fewer slots than jobs", "taskmanagers = 1\n  slots_per_taskmanager = 2", "jobs = 3", 1, 1, "fewer task slots"},
		{"nothing declared", "datanodes = 3", "jobs = 1", 1, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hcl := "flink_version = \"1.20\"\nhadoop_version = \"3.4.1\"\ncluster \"c\" {\n  " + tt.cluster + "\n}\ndeployment \"d\" {\n  flink_conf = \"conf\"\n  " + tt.deployment + "\n}\n"
			p, err := newPlan(StarterOptions{Config: parse(t, hcl), Deployment: "d"})
			if err != nil {
				t.Fatal(err)
			}
			if p.par != tt.write || p.parCounted != tt.counted {
				t.Errorf("parallelism written %d, counted %d; want %d, %d (%s)", p.par, p.parCounted, tt.write, tt.counted, p.parWhy)
			}
			notes := strings.Join(p.notes, "\n")
			if (tt.note == "") != (notes == "") || !strings.Contains(notes, tt.note) {
				t.Errorf("notes %q, want %q", notes, tt.note)
			}
		})
	}
}

// TestStarterUsesObservedFacts: every fact and version `ckptlint facts`
// writes changes what generate writes, as it changes what lint reports
// (issue 24: generate ignored datanode_hadoop_version).
func TestStarterUsesObservedFacts(t *testing.T) {
	p, err := newPlan(StarterOptions{Config: parse(t, observed), Deployment: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	dn := p.datanodeSettings()
	if dn[0].value != "21600" || !strings.Contains(dn[0].why, "Hadoop 3.3.4 (datanode_hadoop_version of cluster \"obs\") has both DirectoryScanner lock fixes") {
		t.Errorf("the DataNode settings are not for the DataNodes' 3.3.4: %+v", dn[0])
	}
	if !strings.Contains(strings.Join(p.datanodeHeader(), "\n"), "Hadoop 3.3.4") {
		t.Errorf("datanode/hdfs-site.xml header does not name the DataNodes' version: %v", p.datanodeHeader())
	}
	// Without datanode_hadoop_version the client's 3.1.0 decides: the
	// 3.1 DataNodes lack the fixes.
	q, err := newPlan(StarterOptions{Config: parse(t, strings.NewReplacer(`datanode_hadoop_version   = "3.3.4"`, "", `, "datanode_hadoop_version"]`, "]").Replace(observed)), Deployment: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	if v := q.datanodeSettings()[0].value; v != "604800" && !strings.Contains(q.datanodeSettings()[0].why, "lacks") {
		t.Errorf("Hadoop 3.1.0 DataNodes: %+v", q.datanodeSettings()[0])
	}
	// The deployment's own TaskManagers and slots size the parallelism.
	if p.par != 8 || !strings.Contains(p.parWhy, `4 TaskManagers (taskmanagers of deployment "orders") x 2 slots (slots_per_taskmanager of deployment "orders")`) {
		t.Errorf("parallelism %d: %s", p.par, p.parWhy)
	}
	// Blocks already scheduled count against the free space, as CKPT101
	// counts them.
	bs, why := p.blocksize()
	if units.HadoopBytesString(bs) != "8m" || !strings.Contains(why, "+ 312 blocks already scheduled on the busiest DataNode (datanode_blocks_scheduled)") {
		t.Errorf("dfs.blocksize %s: %s", units.HadoopBytesString(bs), why)
	}
	// Without state_size the observed checkpoint_size decides, spread over
	// parallelism x the declared stateful operators as CKPT105 spreads it
	// (issue 23); with no stateful_operators declared it decides nothing.
	noState := strings.NewReplacer(`  state_size            = "150g"`, "", `"state_size", `, "").Replace(observed)
	for _, c := range []struct{ hcl, want string }{
		{strings.Replace(noState, `  checkpoint_size       = "1t"`, "  checkpoint_size       = \"1t\"\n  stateful_operators    = 2", 1),
			"the about 64 GiB per subtask of the observed p99 checkpointed size 1 TiB (checkpoint_size of deployment \"orders\") over parallelism 8 x 2 stateful operator(s)"},
		{noState, ""},
	} {
		r, err := newPlan(StarterOptions{Config: parse(t, c.hcl), Deployment: "orders"})
		if err != nil {
			t.Fatal(err)
		}
		need, why := r.fileNeed()
		if why != c.want || (c.want == "" && need != fileCap) {
			t.Errorf("fileNeed = %d, %q; want %q", need, why, c.want)
		}
	}
	tol := ""
	for _, s := range p.flinkSettings() {
		if s.key == "execution.checkpointing.tolerable-failed-checkpoints" {
			tol = s.why
		}
	}
	if !strings.Contains(tol, "the running job has had 12 failed checkpoints (checkpoint_failed of deployment \"orders\")") {
		t.Errorf("tolerable-failed-checkpoints: %s", tol)
	}
}

func TestScannerFixed(t *testing.T) {
	for v, want := range map[string]bool{
		"2.7.3": false, "2.10.1": false, "3.1.4": false, "3.2.1": false, "3.2.2": true, "3.2.4": true,
		"3.3.0": false, "3.3.1": true, "3.4.1": true,
	} {
		p := &plan{}
		var err error
		if p.dn, err = model.ParseVersion(v); err != nil {
			t.Fatal(err)
		}
		if got := p.scannerFixed(); got != want {
			t.Errorf("DataNodes on Hadoop %s: scannerFixed = %v, want %v", v, got, want)
		}
	}
}

// TestConfigYAMLFallsBackToFlatKeys: nested YAML cannot hold a key and a
// longer key below it, so such a config.yaml is written flat.
func TestConfigYAMLFallsBackToFlatKeys(t *testing.T) {
	p := &plan{cl: &config.Cluster{Name: "c"}, flinkText: "Flink 1.20", hadoopText: "Hadoop 3.4.1"}
	ss := []setting{
		{key: "state.backend", value: "rocksdb", tag: "!!str", why: "a"},
		{key: "state.backend.incremental", value: "true", tag: "!!bool", why: "b"},
	}
	got := string(p.flinkFile("config.yaml", ss))
	if !strings.Contains(got, "\nstate.backend: rocksdb\n") || !strings.Contains(got, "\nstate.backend.incremental: true\n") {
		t.Errorf("not flat:\n%s", got)
	}
	got = string(p.flinkFile("config.yaml", ss[1:]))
	if !strings.Contains(got, "state:\n  backend:\n    # b\n    incremental: true\n") {
		t.Errorf("not nested:\n%s", got)
	}
}

func TestXMLCommentsNeverCloseEarly(t *testing.T) {
	got := string(hadoopXML([]string{"use --force"}, []setting{{key: "k", value: "v", why: "a -- b"}}))
	if strings.Count(got, "--") != 2*strings.Count(got, "<!--") {
		t.Errorf("a comment holds \"--\":\n%s", got)
	}
}
