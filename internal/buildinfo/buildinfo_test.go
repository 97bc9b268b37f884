package buildinfo

import (
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

func TestGet(t *testing.T) {
	setting := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	const sha = "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct {
		name         string
		bi           *debug.BuildInfo
		version      string // ldflags
		wantVersion  string
		wantCommit   string
		wantModified string // "", "true", "false"
		wantSource   string
		wantDocs     string
	}{
		{name: "no build info", wantVersion: "devel", wantSource: "none", wantDocs: "main"},
		{name: "go run in a tree without vcs stamping",
			bi:          &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			wantVersion: "devel", wantSource: "none", wantDocs: "main"},
		{name: "go install @v1.2.3",
			bi:          &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}},
			wantVersion: "v1.2.3", wantSource: "module", wantDocs: "v1.2.3"},
		{name: "go install @main (pseudo-version)",
			bi:          &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201043000-abcdef012345"}},
			wantVersion: "v0.0.0-20261201043000-abcdef012345", wantCommit: "abcdef012345", wantSource: "module", wantDocs: "abcdef012345"},
		{name: "build in a modified checkout",
			bi: &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201043000-0123456789ab+dirty"},
				Settings: setting("vcs", "git", "vcs.revision", sha, "vcs.time", "2026-12-01T04:30:00Z", "vcs.modified", "true")},
			wantVersion: "v0.0.0-20261201043000-0123456789ab", wantCommit: sha, wantModified: "true", wantSource: "vcs", wantDocs: "0123456789ab"},
		{name: "release build (ldflags win)",
			bi: &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
				Settings: setting("vcs.revision", sha, "vcs.modified", "false")},
			version: "v1.3.0-rc.1", wantVersion: "v1.3.0-rc.1", wantCommit: sha, wantModified: "false", wantSource: "ldflags", wantDocs: "v1.3.0-rc.1"},
		{name: "action source build of a branch", version: "main", wantVersion: "main", wantSource: "ldflags", wantDocs: "main"},
		{name: "action source build of a SHA", version: sha, wantVersion: sha, wantSource: "ldflags", wantDocs: sha},
		{name: "action source build of a feature branch", version: "feature/x", wantVersion: "feature/x", wantSource: "ldflags", wantDocs: "main"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := version
			version = tc.version
			defer func() { version = old }()
			in := get(tc.bi)
			mod := ""
			if in.Modified != nil {
				mod = map[bool]string{true: "true", false: "false"}[*in.Modified]
			}
			if in.Version != tc.wantVersion || in.Commit != tc.wantCommit || mod != tc.wantModified ||
				in.Source != tc.wantSource || in.Docs != tc.wantDocs {
				t.Errorf("get = %+v (modified %q)\nwant version %q commit %q modified %q source %q docs %q",
					in, mod, tc.wantVersion, tc.wantCommit, tc.wantModified, tc.wantSource, tc.wantDocs)
			}
			wantURL := Repository + "/blob/" + tc.wantDocs + "/docs/rules/CKPT101.md"
			if got := in.DocURL("docs/rules/CKPT101.md"); got != wantURL {
				t.Errorf("DocURL = %s, want %s", got, wantURL)
			}
		})
	}
}

// TestLdflags builds a program with the -X flags .goreleaser.yaml uses and
// checks that they land in the variables this package reads.
func TestLdflags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary (-short)")
	}
	exe := t.TempDir() + "/ckptlint"
	const pkg = "github.com/ckptlint/ckptlint/internal/buildinfo"
	ld := "-X " + pkg + ".version=v9.8.7 -X " + pkg + ".commit=feedface -X " + pkg + ".date=2026-12-01T05:00:00Z -X " + pkg + ".modified=false"
	build := exec.Command("go", "build", "-trimpath", "-ldflags", ld, "-o", exe, "../../cmd/ckptlint")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(exe, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("ckptlint version: %v\n%s", err, out)
	}
	for _, want := range []string{"ckptlint v9.8.7\n", "commit:   feedface\n", "built:    2026-12-01T05:00:00Z\n",
		"modified: false\n", "docs:     v9.8.7\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("ckptlint version lacks %q:\n%s", want, out)
		}
	}
	if v, _ := exec.Command(exe, "--version").Output(); string(v) != string(out) {
		t.Errorf("ckptlint --version:\n%s\nwant what ckptlint version prints:\n%s", v, out)
	}

	// The same version in the reports, and the rule docs of that tag.
	story := "../../testdata/stories/a-blocksize"
	for format, wants := range map[string][]string{
		"sarif": {`"version": "v9.8.7"`, `"helpUri": "https://github.com/ckptlint/ckptlint/blob/v9.8.7/docs/rules/CKPT101.md"`},
		"json":  {`"version": "v9.8.7"`, `"doc_url": "https://github.com/ckptlint/ckptlint/blob/v9.8.7/docs/rules/CKPT101.md"`},
	} {
		lint := exec.Command(exe, "lint", "--config", story+"/.ckptlint.hcl", "--format", format, story)
		out, _ := lint.Output()
		for _, want := range wants {
			if !strings.Contains(string(out), want) {
				t.Errorf("ckptlint lint --format %s lacks %s:\n%.2000s", format, want, out)
			}
		}
		if strings.Contains(string(out), "/blob/main/") {
			t.Errorf("ckptlint lint --format %s of a release build links to blob/main", format)
		}
	}
}
