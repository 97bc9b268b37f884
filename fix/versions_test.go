package fix_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/fix"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/internal/versions"
	"github.com/ckptlint/ckptlint/lint"
)

// oldKeys is a flink-conf.yaml as repositories pinning Flink 1.4-1.16
// write it: the names before FLINK-29372 (1.17) and quoted JVM options.
const oldKeys = `state.backend: rocksdb
state.checkpoints.dir: hdfs://nn:8020/flink/checkpoints
high-availability: zookeeper
high-availability.storageDir: hdfs://nn:8020/flink/ha
restart-strategy: fixed-delay
env.java.opts: "-XX:+UseG1GC"
`

// TestFixVersions: the version comes from each evidence source of a
// repository (its own .git marks the root), messages name it with its
// place, and fix applies only edits that release reads; with no version
// known it applies none of the version-dependent ones and holds them back.
func TestFixVersions(t *testing.T) {
	eng := linttest.Engine(t)
	cases := []struct {
		name     string
		files    map[string]string // beside conf/ (repository root) unless the path says otherwise
		flag     string
		text     string   // Resolved.Text of the set
		applied  []string // op key -> new key / value, sorted
		held     bool
		conflict string // a CKPT004 message must contain this
	}{
		{name: "compose", files: map[string]string{"docker-compose.yml": "services:\n  jm:\n    image: flink:1.10.0-scala_2.12\n"},
			text:    "Flink 1.10.0 (image flink:1.10.0-scala_2.12, docker-compose.yml:3)",
			applied: []string{"set env.java.opts=-XX:+UseG1GC"}},
		{name: "dockerfile", files: map[string]string{"Dockerfile": "ARG V=1.14.6\nFROM apache/flink:${V}-scala_2.12\n"},
			text:    "Flink 1.14.6 (image apache/flink:1.14.6-scala_2.12, Dockerfile:2)",
			applied: []string{"set env.java.opts=-XX:+UseG1GC"}},
		{name: "kubernetes", files: map[string]string{"k8s/../jm.yaml": "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - image: flink:1.13.6\n"},
			text:    "Flink 1.13.6 (image flink:1.13.6, jm.yaml:7)",
			applied: []string{"set env.java.opts=-XX:+UseG1GC"}},
		{name: "helm", files: map[string]string{"values.yaml": "image:\n  repository: flink\n  tag: \"1.16\"\n"},
			text:    "Flink 1.16 (image flink:1.16, values.yaml:3)",
			applied: []string{"set env.java.opts=-XX:+UseG1GC"}},
		{name: "maven", files: map[string]string{"pom.xml": "<project><properties>\n<flink.version>1.18.1</flink.version>\n</properties></project>\n"},
			text: "Flink 1.18.1 (<flink.version>1.18.1</flink.version> in pom.xml, pom.xml:2)",
			applied: []string{"rename env.java.opts->env.java.opts.all", "rename high-availability->high-availability.type",
				"rename restart-strategy->restart-strategy.type", "rename state.backend->state.backend.type", "set env.java.opts.all=-XX:+UseG1GC"}},
		{name: "gradle", files: map[string]string{"build.gradle.kts": "val flinkVersion = \"1.12.7\"\n"},
			text:    "Flink 1.12.7 (flinkVersion = \"1.12.7\" in build.gradle.kts, build.gradle.kts:1)",
			applied: []string{"set env.java.opts=-XX:+UseG1GC"}},
		{name: "script", files: map[string]string{"install.sh": "curl -O https://archive.apache.org/dist/flink/flink-1.11.6/flink-1.11.6-bin-scala_2.12.tgz\n"},
			text:    "Flink 1.11.6 (tarball flink-1.11.6-bin-scala_2.12.tgz, install.sh:1)",
			applied: []string{"set env.java.opts=-XX:+UseG1GC"}},
		{name: "unknown", files: map[string]string{"README.md": "no version here\n"},
			text: "Flink 1.18 (not known", held: true},
		{name: "flag over evidence", flag: "1.17", files: map[string]string{"Dockerfile": "FROM flink:1.10\n"},
			text: "Flink 1.17 (--flink-version)", conflict: "image flink:1.10, Dockerfile:1 pins Flink 1.10",
			applied: []string{"rename env.java.opts->env.java.opts.all", "rename high-availability->high-availability.type",
				"rename restart-strategy->restart-strategy.type", "rename state.backend->state.backend.type", "set env.java.opts.all=-XX:+UseG1GC"}},
		{name: "image over script", files: map[string]string{"Dockerfile": "FROM flink:1.14\n", "install.sh": "V=flink-1.17.1-bin-scala_2.12.tgz\n"},
			text: "Flink 1.14 (image flink:1.14, Dockerfile:1)", conflict: "tarball flink-1.17.1-bin-scala_2.12.tgz, install.sh:1 pins Flink 1.17.1",
			applied: []string{"set env.java.opts=-XX:+UseG1GC"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			mustMkdir(t, filepath.Join(root, ".git"))
			mustMkdir(t, filepath.Join(root, "conf"))
			mustWrite(t, filepath.Join(root, "conf", "flink-conf.yaml"), oldKeys)
			for name, src := range c.files {
				mustWrite(t, filepath.Join(root, filepath.Clean(name)), src)
			}
			t.Chdir(root)
			opts := lint.Options{Versions: lint.Versions{Flink: c.flag}}
			res, err := fix.Run(context.Background(), eng, fix.Options{Lint: opts})
			if err != nil {
				t.Fatal(err)
			}
			sets, _, err := lint.Discover(nil, opts)
			if err != nil || len(sets) != 1 {
				t.Fatalf("sets %v err %v", sets, err)
			}
			if got := sets[0].FlinkVersion.Text("Flink"); !strings.HasPrefix(got, c.text) {
				t.Errorf("version %q, want it to start with %q", got, c.text)
			}
			var applied []string
			for _, a := range res.Applied {
				s := a.Op.Op + " " + a.Key
				if a.Op.Op == "rename" {
					s += "->" + a.Op.NewKey
				} else {
					s += "=" + a.Op.Value
				}
				applied = append(applied, s)
			}
			slices.Sort(applied)
			applied = slices.Compact(applied)
			if !slices.Equal(applied, c.applied) {
				t.Errorf("applied %q, want %q", applied, c.applied)
			}
			if c.held != (len(res.Held) > 0) {
				t.Errorf("held back %v, want held=%v", res.Held, c.held)
			}
			for _, h := range res.Held {
				if !versions.NeedsVersion(h.Op) {
					t.Errorf("held back a version-independent edit: %+v", h.Op)
				}
			}
			var conflicts []string
			for _, f := range res.Remaining {
				if f.RuleID == rule.VersionConflict {
					conflicts = append(conflicts, f.Message)
				}
				if !sets[0].FlinkVersion.Known() && f.VersionDependent && f.Severity.String() != "info" {
					t.Errorf("version-dependent finding above info with no version known: %s", f)
				}
			}
			switch {
			case c.conflict == "" && len(conflicts) > 0:
				t.Errorf("unexpected conflict: %q", conflicts)
			case c.conflict != "" && (len(conflicts) != 1 || !strings.Contains(conflicts[0], c.conflict)):
				t.Errorf("conflicts %q, want one containing %q", conflicts, c.conflict)
			}
		})
	}
}

// TestFixVersionFlinkDeployment: spec.flinkVersion wins over spec.image;
// the disagreement is reported with both places.
func TestFixVersionFlinkDeployment(t *testing.T) {
	eng := linttest.Engine(t)
	root := t.TempDir()
	mustMkdir(t, filepath.Join(root, ".git"))
	mustWrite(t, filepath.Join(root, "job.yaml"), `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: job
spec:
  image: flink:1.16.3
  flinkVersion: v1_15
  flinkConfiguration:
    state.backend: rocksdb
    state.checkpoints.dir: hdfs://nn:8020/flink/checkpoints
`)
	t.Chdir(root)
	res := linttest.Lint(t, eng, ".", lint.Options{})
	if len(res.Sets) != 1 {
		t.Fatalf("sets: %v", res.Sets)
	}
	if got, want := res.Sets[0].FlinkVersion.Text("Flink"), "Flink 1.15 (spec.flinkVersion v1_15, job.yaml:7)"; got != want {
		t.Errorf("version %q, want %q", got, want)
	}
	found := false
	for _, f := range res.Findings {
		if f.RuleID == rule.VersionConflict {
			found = strings.Contains(f.Message, "spec.image flink:1.16.3, job.yaml:6 pins Flink 1.16.3")
		}
		if f.RuleID == "CKPT604" {
			t.Errorf("state.backend is the only name Flink 1.15 reads: %s", f)
		}
	}
	if !found {
		t.Errorf("no CKPT004 naming spec.image: %v", res.Findings)
	}
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, path, src string) {
	t.Helper()
	mustMkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFixCorpusHoldsBackVersionDependentEdits plans `fix --diff` for every
// file of ../shared/corpus on its own, with no .ckptlint.hcl: where the
// Flink version is not known (nothing declared or pinned) the plan holds no
// version-dependent edit (a rename, hashmap, a quoting change), no Hadoop
// key is renamed without a known Hadoop 0.23/2.0 or later, and nothing
// version-dependent is above info; where the file itself pins it
// (FlinkDeployment spec.flinkVersion), every renamed key is one that
// release reads.
func TestFixCorpusHoldsBackVersionDependentEdits(t *testing.T) {
	checkHoldsBack(t, sharedCorpusFiles(t))
}

// TestFixRealWorldHoldsBackVersionDependentEdits runs the same checks over
// testdata/realworld, so a clone without ../shared runs them too.
func TestFixRealWorldHoldsBackVersionDependentEdits(t *testing.T) {
	checkHoldsBack(t, realWorldFiles(t))
}

func checkHoldsBack(t *testing.T, files []inputFile) {
	eng := linttest.Engine(t)
	held := 0
	for _, in := range files {
		kind, name, src := in.kind, in.name, in.src
		work := t.TempDir()
		mustMkdir(t, filepath.Join(work, ".git"))
		mustWrite(t, filepath.Join(work, name), string(src))
		t.Chdir(work)
		res, err := fix.Run(context.Background(), eng, fix.Options{})
		if err != nil {
			t.Fatalf("%s/%s: %v", kind, in.base, err)
		}
		sets, _, _ := lint.Discover(nil, lint.Options{})
		known, hadoopNew := map[string]bool{}, map[string]bool{}
		for _, s := range sets {
			known[s.Name] = s.FlinkVersion.Known()
			hadoopNew[s.Name] = versions.HadoopRenamesRead(s)
		}
		for _, a := range res.Applied {
			if !known[a.Finding.ConfigSet] && (versions.NeedsVersion(a.Op) || a.Finding.VersionDependent || a.Op.Value == "hashmap") {
				t.Errorf("%s/%s: version-dependent edit with no version known: %s %s (%s)", kind, in.base, a.Op.Op, a.Key, a.Finding.RuleID)
			}
			// Hadoop's new key names are read from 0.23/2.0 on only.
			if a.Op.Op == "rename" && a.Op.Target != "flink" && !hadoopNew[a.Finding.ConfigSet] {
				t.Errorf("%s/%s: Hadoop rename with no Hadoop version that reads the new name: %s -> %s (%s)", kind, in.base, a.Key, a.Op.NewKey, a.Finding.RuleID)
			}
		}
		for _, s := range sets {
			if !s.FlinkVersion.Known() {
				continue
			}
			for _, a := range res.Applied {
				if a.Finding.ConfigSet != s.Name || a.Op.Op != "rename" {
					continue
				}
				if since, ok := model.KeySince(a.Op.NewKey); ok && s.FlinkVersion.Version.Less(since) {
					t.Errorf("%s/%s: renamed %s to %s, which %s does not read", kind, in.base, a.Key, a.Op.NewKey, s.FlinkVersion.Text("Flink"))
				}
			}
		}
		for _, fd := range res.Remaining {
			if fd.VersionDependent && !known[fd.ConfigSet] && fd.Severity != finding.Info {
				t.Errorf("%s/%s: version-dependent %s above info with no version known", kind, in.base, fd)
			}
		}
		held += len(res.Held)
	}
	if held == 0 {
		t.Error("the corpus has deprecated spellings on files with no version; none was held back")
	}
}

// TestFixCheckpointDirBefore15: on Flink 1.4 state.backend.fs.checkpointdir
// is the only key the filesystem backend reads, so it is left alone; from
// 1.5 it is the deprecated key of state.checkpoints.dir and is renamed.
func TestFixCheckpointDirBefore15(t *testing.T) {
	eng := linttest.Engine(t)
	for v, want := range map[string]string{"1.4": "", "1.5": "state.backend.fs.checkpointdir->state.checkpoints.dir"} {
		root := t.TempDir()
		mustMkdir(t, filepath.Join(root, ".git"))
		mustWrite(t, filepath.Join(root, "conf", "flink-conf.yaml"), "state.backend: filesystem\nstate.backend.fs.checkpointdir: hdfs://nn:8020/flink/checkpoints\n")
		t.Chdir(root)
		res, err := fix.Run(context.Background(), eng, fix.Options{Lint: lint.Options{Versions: lint.Versions{Flink: v}}})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, a := range res.Applied {
			got += a.Key + "->" + a.Op.NewKey + a.Op.Value
		}
		if got != want {
			t.Errorf("Flink %s: applied %q, want %q", v, got, want)
		}
	}
}

// TestFixHadoopRenameNeedsHadoopVersion: fs.default.name -> fs.defaultFS
// is right only from Hadoop 0.23/2.0 on (1.x reads only the old name), so
// fix holds it back until the Hadoop version is known: declared, pinned by
// an image beside the set, and not applied on a declared Hadoop 1.2.
func TestFixHadoopRenameNeedsHadoopVersion(t *testing.T) {
	eng := linttest.Engine(t)
	const site = "<configuration>\n<property><name>fs.default.name</name><value>hdfs://nn:8020</value></property>\n</configuration>\n"
	for _, tc := range []struct {
		name, declared, compose string
		applied                 bool
	}{
		{name: "unknown"},
		{name: "declared 1.2", declared: "1.2.1"},
		{name: "declared 3.3", declared: "3.3.6", applied: true},
		{name: "pinned by an image", compose: "services:\n  namenode:\n    image: apache/hadoop:3.3.6\n", applied: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			mustMkdir(t, filepath.Join(root, ".git"))
			mustWrite(t, filepath.Join(root, "conf", "core-site.xml"), site)
			if tc.compose != "" {
				mustWrite(t, filepath.Join(root, "docker-compose.yml"), tc.compose)
			}
			t.Chdir(root)
			res, err := fix.Run(context.Background(), eng, fix.Options{Lint: lint.Options{Versions: lint.Versions{Hadoop: tc.declared}}})
			if err != nil {
				t.Fatal(err)
			}
			renamed := slices.ContainsFunc(res.Applied, func(a fix.Applied) bool { return a.Op.NewKey == "fs.defaultFS" })
			held := slices.ContainsFunc(res.Held, func(h fix.Skipped) bool { return h.Op.NewKey == "fs.defaultFS" })
			if renamed != tc.applied || held == tc.applied {
				t.Errorf("renamed %v, held back %v; want renamed %v", renamed, held, tc.applied)
			}
		})
	}
}

// TestVersionFromKubernetesImageOption: native Kubernetes deployments name
// their image in the Flink configuration itself.
func TestVersionFromKubernetesImageOption(t *testing.T) {
	eng := linttest.Engine(t)
	root := t.TempDir()
	mustMkdir(t, filepath.Join(root, ".git"))
	mustWrite(t, filepath.Join(root, "conf", "flink-conf.yaml"), "kubernetes.container.image: flink:1.15.4-scala_2.12\nstate.backend: rocksdb\nstate.checkpoints.dir: hdfs://nn:8020/c\n")
	t.Chdir(root)
	res := linttest.Lint(t, eng, ".", lint.Options{})
	if got, want := res.Sets[0].FlinkVersion.Text("Flink"), "Flink 1.15.4 (kubernetes.container.image flink:1.15.4-scala_2.12, conf/flink-conf.yaml:1)"; got != want {
		t.Errorf("version %q, want %q", got, want)
	}
}
