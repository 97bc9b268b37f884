package pipeline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDeployScript runs docs/examples/deploy.sh against temporary copies of
// the stories, with the ckptlint TestMain built first on PATH, and checks
// its exit codes, what it wrote and whether it deployed.
func TestDeployScript(t *testing.T) {
	script := filepath.Join(root, "docs", "examples", "deploy.sh")
	// Read here, also so that go test's cache notices a change to it.
	if src := readFile(t, script); !strings.HasPrefix(src, "#!/usr/bin/env bash\n") || !strings.Contains(src, "\nset -euo pipefail\n") {
		t.Errorf("%s: want a bash script with set -euo pipefail", script)
	}
	if st, err := os.Stat(script); err != nil || st.Mode()&0o111 == 0 {
		t.Errorf("%s is not executable", script)
	}
	pathEnv := "PATH=" + binDir + string(os.PathListSeparator) + os.Getenv("PATH")
	// These cases gate on errors; the default gate (warning) has its own case.
	errorsOnly := []string{"CKPTLINT_FAIL_LEVEL=error"}
	tests := []struct {
		name    string
		story   []string
		edit    func(t *testing.T, dir string) // breaks the copy further
		env     []string
		args    []string
		code    int
		fixed   bool   // flink/flink-conf.yaml was rewritten by fix
		out     string // in stdout
		errOut  string // in stderr
		report  bool   // the JSON report was written
		deploys bool
	}{
		{
			name: "story b is fixed, then deployed", story: []string{"stories", "b-directoryscanner"},
			env: errorsOnly, code: 0, fixed: true, report: true, deploys: true,
			out: "+execution.checkpointing.timeout: 2 min",
		},
		{
			name: "CKPTLINT_FIX=false shows the diff and blocks", story: []string{"stories", "b-directoryscanner"},
			env: append([]string{"CKPTLINT_FIX=false"}, errorsOnly...), code: 1, report: true,
			out: "ckptlint fix: not applied (CKPTLINT_FIX=false)", errOut: "CKPT201",
		},
		{
			name: "a clean configuration has nothing to fix", story: []string{"stories-fixed", "b-directoryscanner"},
			env: errorsOnly, code: 0, report: true, deploys: true, out: "ckptlint fix: nothing to change",
		},
		{
			// The default fail level is ckptlint's, warning: the CKPT105
			// warning fix cannot fix stops the deploy.
			name: "a remaining warning blocks at the default fail level", story: []string{"stories-fixed", "b-directoryscanner"},
			edit: declareStateSize,
			code: 1, report: true, errOut: "remain after fixing: CKPT105 at hadoop/client/hdfs-site.xml:4",
		},
		{
			name: "an unfixable error blocks the deployment", story: []string{"stories", "b-directoryscanner"},
			edit: func(t *testing.T, dir string) {
				replaceIn(t, filepath.Join(dir, "flink", "flink-conf.yaml"),
					"execution.checkpointing.interval: 1 min", "execution.checkpointing.interval: 1 fortnight")
			},
			code: 1, report: true, errOut: "remain after fixing: CKPT207 at flink/flink-conf.yaml:9",
		},
		{
			name: "a broken .ckptlint.hcl is exit code 2", story: []string{"stories", "b-directoryscanner"},
			edit: func(t *testing.T, dir string) {
				replaceIn(t, filepath.Join(dir, ".ckptlint.hcl"), `hadoop_conf       = "hadoop/client"`, `hadoop_conf = `)
			},
			code: 2,
		},
		{
			name: "a missing path is exit code 2", story: []string{"stories", "b-directoryscanner"},
			args: []string{"no/such/dir"}, code: 2,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			copyTree(t, story(tc.story...), dir)
			if tc.edit != nil {
				tc.edit(t, dir)
			}
			conf := filepath.Join(dir, "flink", "flink-conf.yaml")
			before := readFile(t, conf)
			res := run(t, dir, append([]string{pathEnv}, tc.env...), "bash", append([]string{script}, tc.args...)...)
			if res.code != tc.code {
				t.Fatalf("deploy.sh: %v\nwant exit code %d", res, tc.code)
			}
			if changed := readFile(t, conf) != before; changed != tc.fixed {
				t.Errorf("flink-conf.yaml changed: %v, want %v\n%s", changed, tc.fixed, readFile(t, conf))
			}
			if tc.fixed && !strings.Contains(readFile(t, conf), "execution.checkpointing.timeout: 2 min") {
				t.Errorf("fix did not raise the timeout:\n%s", readFile(t, conf))
			}
			if deployed := strings.Contains(res.stdout, "deploy: configuration checked"); deployed != tc.deploys {
				t.Errorf("deployed: %v, want %v\n%v", deployed, tc.deploys, res)
			}
			if !strings.Contains(res.stdout, tc.out) || !strings.Contains(res.stderr, tc.errOut) {
				t.Errorf("want %q in stdout and %q in stderr:\n%v", tc.out, tc.errOut, res)
			}
			report := filepath.Join(dir, "ckptlint-report.json")
			b, err := os.ReadFile(report)
			if (err == nil) != tc.report {
				t.Fatalf("report written: %v, want %v", err == nil, tc.report)
			}
			if !tc.report {
				return
			}
			var doc struct{ Summary map[string]int }
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatalf("%s: %v", report, err)
			}
			blocked := doc.Summary["errors"] > 0
			if !slices.Contains(tc.env, errorsOnly[0]) {
				blocked = blocked || doc.Summary["warnings"] > 0
			}
			if blocked != (tc.code == 1) {
				t.Errorf("report summary %v does not match exit code %d", doc.Summary, tc.code)
			}
		})
	}
}

// TestFixAndDeploy runs the one-line gate of docs/fix.md and docs/ci.md,
// `ckptlint fix && deploy`, in a real shell: fix exits 0 only when no
// finding at or above --fail-level remains after fixing, so the deploy runs
// after a fix that leaves nothing and never after one that leaves an error.
func TestFixAndDeploy(t *testing.T) {
	pathEnv := "PATH=" + binDir + string(os.PathListSeparator) + os.Getenv("PATH")
	gate := "ckptlint fix --fail-level error && echo deployed"
	for _, tc := range []struct {
		name    string
		edit    func(t *testing.T, dir string)
		code    int
		deploys bool
	}{
		{name: "story b, fixed", code: 0, deploys: true},
		{name: "story b with an unfixable error", edit: func(t *testing.T, dir string) {
			replaceIn(t, filepath.Join(dir, "flink", "flink-conf.yaml"),
				"execution.checkpointing.interval: 1 min", "execution.checkpointing.interval: 1 fortnight")
		}, code: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			copyTree(t, story("stories", "b-directoryscanner"), dir)
			if tc.edit != nil {
				tc.edit(t, dir)
			}
			res := run(t, dir, []string{pathEnv}, "sh", "-c", gate)
			if res.code != tc.code || strings.Contains(res.stdout, "deployed\n") != tc.deploys {
				t.Fatalf("sh -c %q: %v\nwant exit code %d, deployed %v", gate, res, tc.code, tc.deploys)
			}
			if tc.deploys && !strings.Contains(readFile(t, filepath.Join(dir, "flink", "flink-conf.yaml")), "execution.checkpointing.timeout: 2 min") {
				t.Errorf("fix did not raise the timeout")
			}
			if !tc.deploys && !strings.Contains(res.stderr, "remain after fixing: CKPT207") {
				t.Errorf("fix does not say which finding remains:\n%v", res)
			}
		})
	}
}

// declareStateSize declares the largest subtask's state (12 GiB) in the
// .ckptlint.hcl of a copy of stories-fixed/b: CKPT105 warns only with it
// (otherwise it is an info asking for state_size), so the copy keeps one
// warning that fix cannot fix and no error.
func declareStateSize(t *testing.T, dir string) {
	t.Helper()
	replaceIn(t, filepath.Join(dir, ".ckptlint.hcl"), `  cluster           = "shared"`+"\n",
		`  cluster           = "shared"`+"\n"+`  state_size        = "12g"`+"\n")
}

func replaceIn(t *testing.T, path, old, new string) {
	t.Helper()
	s := readFile(t, path)
	if !strings.Contains(s, old) {
		t.Fatalf("%s lacks %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(s, old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}
