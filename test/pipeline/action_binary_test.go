package pipeline

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The binary install mode of action.yml against a local release server: the
// test builds a release (archive + checksums.txt, named as .goreleaser.yaml
// names them) and serves it on 127.0.0.1 through CKPTLINT_ACTION_RELEASE_URL,
// the test-only override of the GitHub releases URL.

const releaseTag = "v9.9.9"

// archiveName is the archive .goreleaser.yaml's name_template gives a
// target: ckptlint_<version without v>_<goos>_<goarch>.tar.gz (.zip on
// windows). release_test.go checks it against a real goreleaser snapshot.
func archiveName(version, goos, goarch string) string {
	ext := "tar.gz"
	if goos == "windows" {
		ext = "zip"
	}
	return fmt.Sprintf("ckptlint_%s_%s_%s.%s", strings.TrimPrefix(version, "v"), goos, goarch, ext)
}

// release is a release directory served over HTTP.
type release struct {
	dir string // holds <tag>/<files>
	url string
	mu  sync.Mutex
	got map[string]int // requests by path
}

func (rel *release) requests(path string) int {
	rel.mu.Lock()
	defer rel.mu.Unlock()
	return rel.got[path]
}

// serveRelease serves dir on 127.0.0.1 for the test's lifetime.
func serveRelease(t *testing.T, dir string) *release {
	t.Helper()
	rel := &release{dir: dir, got: map[string]int{}}
	fs := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		rel.mu.Lock()
		rel.got[req.URL.Path]++
		rel.mu.Unlock()
		fs.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	rel.url = srv.URL
	return rel
}

// releaseBinaries is a directory holding the two executables of a release,
// ckptlint and ckptlint-render, built once.
var releaseBinaries = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "ckptlint-release-")
	if err != nil {
		return "", err
	}
	// As .goreleaser.yaml builds them: static, trimmed, version stamped.
	r := runQuiet(root, []string{"CGO_ENABLED=0"}, "go", "build", "-trimpath",
		"-ldflags", "-s -w -X github.com/ckptlint/ckptlint/internal/buildinfo.version="+releaseTag,
		"-o", dir+string(filepath.Separator), "./cmd/ckptlint", "./cmd/ckptlint-render")
	if r.code != 0 || r.err != nil {
		return "", fmt.Errorf("go build: %v %s", r.err, r)
	}
	return dir, nil
})

// releaseExecutables are the executables of a release archive.
var releaseExecutables = []string{"ckptlint", "ckptlint-render"}

// tarGz makes a .tar.gz holding files (name → content; the
// releaseExecutables are executable).
func tarGz(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	for _, name := range append(slices.Clone(releaseExecutables), "LICENSE", "README.md") {
		data, ok := files[name]
		if !ok {
			continue
		}
		mode := int64(0o644)
		if slices.Contains(releaseExecutables, name) {
			mode = 0o755
		}
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: mode, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// releaseFiles are the files of a release archive: the real binaries,
// LICENSE and README.md.
func releaseFiles(t *testing.T) map[string][]byte {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the simulated runner is a Linux runner")
	}
	bins, err := releaseBinaries()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"LICENSE": []byte(readFile(t, filepath.Join(root, "LICENSE"))),
		"README.md": []byte(readFile(t, filepath.Join(root, "README.md")))}
	for _, name := range releaseExecutables {
		b, err := os.ReadFile(filepath.Join(bins, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	return files
}

// buildRelease writes the release of releaseTag for this machine's target:
// the archive of releaseFiles, and a checksums.txt in goreleaser's format
// that lists it with another target. serve, when not nil, replaces the
// archive's bytes on the server (a tampered download) while checksums.txt
// keeps the genuine sum.
func buildRelease(t *testing.T, serve []byte, list bool) (dir, archive string) {
	t.Helper()
	return writeRelease(t, releaseFiles(t), serve, list)
}

// writeRelease is buildRelease with the archive's files given.
func writeRelease(t *testing.T, files map[string][]byte, serve []byte, list bool) (dir, archive string) {
	t.Helper()
	genuine := tarGz(t, files)
	archive = archiveName(releaseTag, runtime.GOOS, runtime.GOARCH)
	dir = t.TempDir()
	tagDir := filepath.Join(dir, releaseTag)
	if err := os.MkdirAll(tagDir, 0o755); err != nil {
		t.Fatal(err)
	}
	sums := fmt.Sprintf("%s  %s\n", sha256Hex([]byte("other")), archiveName(releaseTag, "windows", "arm64"))
	if list {
		sums += fmt.Sprintf("%s  %s\n", sha256Hex(genuine), archive)
	}
	data := genuine
	if serve != nil {
		data = serve
	}
	for name, b := range map[string][]byte{"checksums.txt": []byte(sums), archive: data} {
		if err := os.WriteFile(filepath.Join(tagDir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, archive
}

// binaryRunner runs action.yml as pinned to releaseTag, downloading from
// rel, with toolCache as RUNNER_TOOL_CACHE ("" for a fresh one).
func binaryRunner(t *testing.T, ws string, rel *release, toolCache string, inputs map[string]string) *runner {
	t.Helper()
	requireTool(t, "jq", "action.yml reads its count outputs with it")
	requireTool(t, "curl", "action.yml downloads the release with it, as every runner image has it")
	r := newRunner(t, loadAction(t, filepath.Join(root, "action.yml")), ws, inputs)
	r.actionRef = releaseTag
	// No renderer on PATH: ckptlint must find the one installed beside it.
	r.env = []string{"CKPTLINT_ACTION_RELEASE_URL=" + rel.url, "PATH=" + pathWithoutRenderer()}
	if toolCache != "" {
		r.toolCache = toolCache
	}
	return r
}

func TestActionBinaryMode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a release binary (-short)")
	}
	dir, archive := buildRelease(t, nil, true)
	rel := serveRelease(t, dir)
	ws := newWorkspace(t, story("stories", "b-directoryscanner"), "")

	r := binaryRunner(t, ws, rel, "", nil)
	if code := r.run(); code != 1 {
		t.Fatalf("exit code %d, want 1 (story b has errors)\n%s\n%s", code, r.stdout.String(), r.stderr.String())
	}
	if got := r.steps["mode"]["mode"]; got != "binary" {
		t.Errorf("install mode %q for a release tag, want binary", got)
	}
	exe := r.steps["install"]["path"]
	wantExe := filepath.Join(r.toolCache, "ckptlint", strings.TrimPrefix(releaseTag, "v"), strings.ToLower(runnerArch()), "ckptlint")
	if exe != wantExe {
		t.Errorf("installed at %q, want the tool cache path %q", exe, wantExe)
	}
	if _, err := os.Stat(filepath.Dir(wantExe) + ".complete"); err != nil {
		t.Errorf("no tool cache completion marker: %v", err)
	}
	if len(r.steps["build"]) != 0 {
		t.Errorf("the build step ran in binary mode: %v", r.steps["build"])
	}
	checkInstalled(t, r)
	out := r.stdout.String()
	for _, want := range []string{archive + ": SHA-256 ", "ckptlint " + releaseTag + "\n",
		"::error file=flink/flink-conf.yaml,line=10,"} {
		if !strings.Contains(out, want) {
			t.Errorf("the action's output lacks %q:\n%s", want, out)
		}
	}
	checkCounts(t, r, lintJSON(t, ws))
	if n := rel.requests("/" + releaseTag + "/" + archive); n != 1 {
		t.Errorf("archive downloaded %d times, want 1", n)
	}

	// A second job on the same runner takes the binary from the tool cache.
	r2 := binaryRunner(t, ws, rel, r.toolCache, nil)
	if code := r2.run(); code != 1 {
		t.Fatalf("second run: exit code %d, want 1\n%s\n%s", code, r2.stdout.String(), r2.stderr.String())
	}
	if !strings.Contains(r2.stdout.String(), "from the tool cache") || rel.requests("/"+releaseTag+"/"+archive) != 1 {
		t.Errorf("second run downloaded again (%d requests):\n%s", rel.requests("/"+releaseTag+"/"+archive), r2.stdout.String())
	}

	// The action on a Helm chart renders it with the installed renderer
	// (PATH holds none: binaryRunner).
	chart := writeChart(t)
	gitCommitAll(t, chart)
	rc := binaryRunner(t, chart, rel, r.toolCache, nil)
	if code := rc.run(); code != 1 || !strings.Contains(rc.stdout.String(), "::error file=templates/configmap.yaml,line=6,") ||
		!strings.Contains(rc.stdout.String(), "CKPT513") || strings.Contains(rc.stderr.String(), "not rendered") {
		t.Errorf("the action on a Helm chart: exit code %d, want 1 with the CKPT513 annotation on templates/configmap.yaml\n%s\n%s",
			code, rc.stdout.String(), rc.stderr.String())
	}

	// install-mode source on a release tag builds instead (the build step
	// is stubbed with the binary TestMain built): nothing is downloaded.
	before := rel.requests("/" + releaseTag + "/checksums.txt")
	r3 := binaryRunner(t, ws, rel, "", map[string]string{"install-mode": "source"})
	r3.stub = map[string]map[string]string{"build": {"path": ckptlint}}
	if code := r3.run(); code != 1 || r3.steps["mode"]["mode"] != "source" || len(r3.steps["install"]) != 0 {
		t.Errorf("install-mode source: exit code %d, mode %q, install outputs %v", code, r3.steps["mode"]["mode"], r3.steps["install"])
	}
	if rel.requests("/"+releaseTag+"/checksums.txt") != before {
		t.Error("install-mode source downloaded the release")
	}
}

// checkInstalled checks what the install step of r left: ckptlint and
// ckptlint-render side by side in the tool cache, executable, and ckptlint
// rendering a chart with the renderer beside it (and none on PATH).
func checkInstalled(t *testing.T, r *runner) {
	t.Helper()
	exe := r.steps["install"]["path"]
	if exe == "" {
		t.Fatalf("the install step gave no path: %v", r.steps["install"])
	}
	for _, name := range releaseExecutables {
		p := filepath.Join(filepath.Dir(exe), name)
		if st, err := os.Stat(p); err != nil || st.Mode()&0o111 == 0 {
			t.Errorf("%s is not installed beside ckptlint: %v", name, err)
		}
	}
	checkRendered(t, "the installed ckptlint on a chart", run(t, writeChart(t), []string{"PATH=" + pathWithoutRenderer()}, exe, "lint", "--no-cache", "."))
}

// checkRefused checks that the action stopped in the install step with
// message, before linting, and installed nothing.
func checkRefused(t *testing.T, r *runner, code int, message string) {
	t.Helper()
	out := r.stdout.String()
	if code == 0 || !strings.Contains(out, message) {
		t.Errorf("exit code %d, want a failure with %q\n%s\n%s", code, message, out, r.stderr.String())
	}
	if strings.Contains(out, "::error file=") {
		t.Errorf("the lint step ran:\n%s", out)
	}
	if len(r.steps["install"]) != 0 {
		t.Errorf("install step outputs %v", r.steps["install"])
	}
	if ents, _ := os.ReadDir(filepath.Join(r.toolCache, "ckptlint")); len(ents) != 0 {
		t.Errorf("something was installed in the tool cache: %v", ents)
	}
}

func TestActionBinaryModeFailsClosed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a release binary (-short)")
	}
	ws := newWorkspace(t, story("stories", "b-directoryscanner"), "")

	t.Run("tampered archive", func(t *testing.T) {
		// The tampered binary would leave a marker if it ever ran.
		marker := filepath.Join(t.TempDir(), "tampered-binary-ran")
		evil := tarGz(t, map[string][]byte{"ckptlint": []byte("#!/bin/sh\ntouch " + marker + "\necho 'ckptlint " + releaseTag + "'\n")})
		dir, archive := buildRelease(t, evil, true)
		r := binaryRunner(t, ws, serveRelease(t, dir), "", nil)
		code := r.run()
		checkRefused(t, r, code, "::error title=ckptlint::SHA-256 mismatch for "+archive+" of release "+releaseTag)
		if _, err := os.Stat(marker); err == nil {
			t.Error("the tampered binary ran")
		}
	})

	t.Run("archive without ckptlint-render", func(t *testing.T) {
		// Listed in checksums.txt with its true sum, so only the
		// extraction can tell.
		files := releaseFiles(t)
		delete(files, "ckptlint-render")
		dir, archive := writeRelease(t, files, nil, true)
		r := binaryRunner(t, ws, serveRelease(t, dir), "", nil)
		checkRefused(t, r, r.run(), "::error title=ckptlint::could not extract ckptlint and ckptlint-render from "+archive+" of release "+releaseTag)
	})

	t.Run("archive not in checksums.txt", func(t *testing.T) {
		dir, archive := buildRelease(t, nil, false)
		r := binaryRunner(t, ws, serveRelease(t, dir), "", nil)
		checkRefused(t, r, r.run(), archive+" is not listed in checksums.txt of release "+releaseTag)
	})

	t.Run("release missing", func(t *testing.T) {
		r := binaryRunner(t, ws, serveRelease(t, t.TempDir()), "", nil)
		checkRefused(t, r, r.run(), "::error title=ckptlint::could not download ")
	})

	t.Run("binary mode on a branch", func(t *testing.T) {
		r := binaryRunner(t, ws, serveRelease(t, t.TempDir()), "", map[string]string{"install-mode": "binary"})
		r.actionRef = "main"
		checkRefused(t, r, r.run(), "install-mode binary needs the action pinned to a release tag")
	})
}
