package pipeline

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// goreleaserModule is the GoReleaser the tests and the release workflow
// use; .ci/run installs it with go install.
const goreleaserModule = "github.com/goreleaser/goreleaser/v2@v2.15.1"

// requireGoreleaser returns the goreleaser on PATH, checked to be the
// pinned version, or skips (fails under CI=true, where .ci/run installs it).
func requireGoreleaser(t *testing.T) string {
	t.Helper()
	gr := requireTool(t, "goreleaser", "checks .goreleaser.yaml and builds a snapshot; go install "+goreleaserModule)
	_, want, _ := strings.Cut(goreleaserModule, "@")
	r := run(t, root, nil, gr, "--version")
	if r.code != 0 || !strings.Contains(r.stdout+r.stderr, "GitVersion:    "+want+"\n") {
		msg := "goreleaser on PATH is not " + want + ": " + r.String()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return gr
}

// releaseRepo is a snapshot repository of the working tree with the
// GitHub remote goreleaser reads the release's owner from (nothing is
// fetched from it or pushed to it).
func releaseRepo(t *testing.T) string {
	t.Helper()
	repo := snapshotRepo(t)
	if r := run(t, repo, gitEnv, "git", "remote", "add", "origin", "https://github.com/ckptlint/ckptlint.git"); r.code != 0 {
		t.Fatalf("git remote add: %v", r)
	}
	return repo
}

// TestGoreleaserCheck validates .goreleaser.yaml with goreleaser itself.
func TestGoreleaserCheck(t *testing.T) {
	gr := requireGoreleaser(t)
	if r := run(t, root, nil, gr, "check", "--config", filepath.Join(root, ".goreleaser.yaml")); r.code != 0 {
		t.Fatalf("goreleaser check: %v", r)
	}
}

// releaseBuild is what TestReleaseImage reads of a build of .goreleaser.yaml.
type releaseBuild struct {
	ID     string   `yaml:"id"`
	Binary string   `yaml:"binary"`
	Goos   []string `yaml:"goos"`
	Goarch []string `yaml:"goarch"`
	Env    []string `yaml:"env"`
}

// TestReleaseImage checks the release image against what GoReleaser puts in
// its build context: the Dockerfile dockers_v2 names exists, is FROM a
// distroless or scratch base (pinned by tag, no shell to rely on), COPYs
// the binary of a build the image lists from ${TARGETPLATFORM}/, as
// dockers_v2 lays out the context, and runs it as its entrypoint; every
// platform is one the builds produce. No Docker daemon is needed (nor
// available on the test machine), so the image itself is built only by
// the release workflow.
func TestReleaseImage(t *testing.T) {
	var cfg struct {
		Builds  []releaseBuild `yaml:"builds"`
		Dockers []struct {
			IDs        []string          `yaml:"ids"`
			Dockerfile string            `yaml:"dockerfile"`
			Images     []string          `yaml:"images"`
			Platforms  []string          `yaml:"platforms"`
			BuildArgs  map[string]string `yaml:"build_args"`
		} `yaml:"dockers_v2"`
	}
	if err := yaml.Unmarshal([]byte(readFile(t, filepath.Join(root, ".goreleaser.yaml"))), &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Dockers) != 2 {
		t.Fatalf(".goreleaser.yaml: %d dockers_v2 images, want 2 (the image and its -debug variant)", len(cfg.Dockers))
	}
	for _, img := range cfg.Dockers {
		checkImage(t, img.IDs, img.Dockerfile, img.Images, img.Platforms, img.BuildArgs, cfg.Builds)
	}
}

// checkImage checks one dockers_v2 image of TestReleaseImage.
func checkImage(t *testing.T, ids []string, dockerfile string, images, platforms []string, args map[string]string, builds []releaseBuild) {
	t.Helper()
	if len(images) == 0 || !strings.HasPrefix(images[0], "ghcr.io/ckptlint/") {
		t.Errorf("images %v: want ghcr.io/ckptlint/...", images)
	}
	var binary string
	for _, b := range builds {
		if !slices.Contains(ids, b.ID) {
			continue
		}
		binary = b.Binary
		if !slices.Contains(b.Env, "CGO_ENABLED=0") {
			t.Errorf("build %s is not static (CGO_ENABLED=0), yet the image has no libc", b.ID)
		}
		for _, p := range platforms {
			goos, arch, _ := strings.Cut(p, "/")
			if !slices.Contains(b.Goos, goos) || !slices.Contains(b.Goarch, arch) {
				t.Errorf("platform %s is not built by build %s", p, b.ID)
			}
		}
	}
	if binary == "" {
		t.Fatalf("dockers_v2 ids %v name no build", ids)
	}
	src := readFile(t, filepath.Join(root, dockerfile))
	var from, copied, entry string
	argDefault := map[string]string{}
	for _, line := range strings.Split(src, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch strings.ToUpper(f[0]) {
		case "ARG":
			if k, v, ok := strings.Cut(f[1], "="); ok {
				argDefault[k] = v
			}
		case "FROM":
			from = f[1]
		case "COPY":
			copied = strings.Join(f[1:], " ")
		case "ENTRYPOINT":
			entry = strings.Join(f[1:], " ")
		case "RUN":
			t.Errorf("%s: %s: the base has no shell, and a release image runs nothing at build", dockerfile, line)
		}
	}
	// FROM ${BASE}: the build argument, else the ARG's default.
	if name, ok := strings.CutPrefix(from, "${"); ok {
		name = strings.TrimSuffix(name, "}")
		from = argDefault[name]
		if v, ok := args[name]; ok {
			from = v
		}
	}
	if from != "scratch" && (!strings.HasPrefix(from, "gcr.io/distroless/static") || !strings.Contains(from, ":")) {
		t.Errorf("%s (build args %v): FROM %q, want scratch or a tagged gcr.io/distroless/static image", dockerfile, args, from)
	}
	if want := "${TARGETPLATFORM}/" + binary + " /usr/local/bin/" + binary; copied != want {
		t.Errorf("%s: COPY %s, want COPY %s (dockers_v2's context holds PLATFORM/BINARY)", dockerfile, copied, want)
	}
	if want := `["/usr/local/bin/` + binary + `"]`; entry != want {
		t.Errorf("%s: ENTRYPOINT %s, want %s", dockerfile, entry, want)
	}
}

// TestGoreleaserRelease runs a release of this working tree, tagged
// releaseTag, in a snapshot repository: the host target only (building
// six OPA binaries would take most of an hour on the CI machine), nothing
// published or signed (both need the network: docs/releasing.md). It
// checks the archive (name, binary, README, LICENSE, docs), checksums.txt
// and the binary's version identity, and then runs action.yml's binary mode
// against this very release, so the action and .goreleaser.yaml agree on
// names and checksums.
func TestGoreleaserRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a release (-short)")
	}
	gr := requireGoreleaser(t)
	repo := releaseRepo(t)
	if r := run(t, repo, gitEnv, "git", "tag", releaseTag); r.code != 0 {
		t.Fatalf("git tag: %v", r)
	}

	// The configuration as published, with the builds cut to this machine.
	var cfg map[string]any
	if err := yaml.Unmarshal([]byte(readFile(t, filepath.Join(repo, ".goreleaser.yaml"))), &cfg); err != nil {
		t.Fatal(err)
	}
	builds := cfg["builds"].([]any)
	build := builds[0].(map[string]any)
	build["goos"] = []string{runtime.GOOS}
	build["goarch"] = []string{runtime.GOARCH}
	dist := filepath.Join(t.TempDir(), "dist")
	cfg["dist"] = dist
	b, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(t.TempDir(), "goreleaser.yaml")
	if err := os.WriteFile(conf, b, 0o644); err != nil {
		t.Fatal(err)
	}
	goenv := run(t, root, nil, "go", "env", "GOMODCACHE", "GOCACHE")
	vals := strings.Fields(goenv.stdout)
	env := append([]string{"GOMODCACHE=" + vals[0], "GOCACHE=" + vals[1], "GOFLAGS=", "GITHUB_TOKEN=", "GORELEASER_CURRENT_TAG=" + releaseTag}, gitEnv...)
	r := run(t, repo, env, gr, "release", "--config", conf, "--clean", "--skip=publish,sign,announce,validate,docker")
	if r.code != 0 {
		t.Fatalf("goreleaser release: %v", r)
	}

	archive := archiveName(releaseTag, runtime.GOOS, runtime.GOARCH)
	data, err := os.ReadFile(filepath.Join(dist, archive))
	if err != nil {
		ents, _ := os.ReadDir(dist)
		t.Fatalf("%v; dist holds %v", err, ents)
	}
	sums := readFile(t, filepath.Join(dist, "checksums.txt"))
	sum := sha256.Sum256(data)
	if !strings.Contains(sums, hex.EncodeToString(sum[:])+"  "+archive+"\n") {
		t.Errorf("checksums.txt does not list %s with its SHA-256:\n%s", archive, sums)
	}
	names := tarNames(t, data)
	for _, want := range []string{"ckptlint", "README.md", "LICENSE", "CHANGELOG.md", "SECURITY.md", "docs/ci.md",
		"docs/rules/CKPT101.md", "docs/schema/ckptlint-json.schema.json"} {
		if !names[want] {
			t.Errorf("%s lacks %s", archive, want)
		}
	}

	// The release binary knows its version and commit, and is static.
	exe := filepath.Join(t.TempDir(), "ckptlint")
	extract(t, data, "ckptlint", exe)
	v := run(t, repo, nil, exe, "version")
	commit := strings.TrimSpace(run(t, repo, gitEnv, "git", "rev-parse", "HEAD").stdout)
	for _, want := range []string{"ckptlint " + releaseTag + "\n", "commit:   " + commit + "\n", "modified: false\n", "docs:     " + releaseTag + "\n"} {
		if !strings.Contains(v.stdout, want) {
			t.Errorf("ckptlint version of the release lacks %q:\n%s", want, v.stdout)
		}
	}
	if runtime.GOOS == "linux" {
		if f := run(t, repo, nil, "go", "version", "-m", exe); !strings.Contains(f.stdout, "CGO_ENABLED=0") || !strings.Contains(f.stdout, "-trimpath=true") {
			t.Errorf("the release binary is not built with CGO_ENABLED=0 and -trimpath:\n%s", f.stdout)
		}
	}

	// action.yml installs this release.
	rel := serveRelease(t, t.TempDir())
	if err := os.MkdirAll(filepath.Join(rel.dir, releaseTag), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{archive, "checksums.txt"} {
		if err := copyFile(filepath.Join(dist, f), filepath.Join(rel.dir, releaseTag, f)); err != nil {
			t.Fatal(err)
		}
	}
	ws := newWorkspace(t, story("stories", "b-directoryscanner"), "")
	ar := binaryRunner(t, ws, rel, "", nil)
	if code := ar.run(); code != 1 || !strings.Contains(ar.stdout.String(), archive+": SHA-256 ") {
		t.Errorf("action.yml with the goreleaser release: exit code %d\n%s\n%s", code, ar.stdout.String(), ar.stderr.String())
	}
}

// TestGoreleaserBuildSnapshot is the quick check a contributor runs:
// `goreleaser build --snapshot --single-target` with the published
// configuration, in a snapshot repository.
func TestGoreleaserBuildSnapshot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ckptlint (-short)")
	}
	gr := requireGoreleaser(t)
	repo := releaseRepo(t)
	goenv := run(t, root, nil, "go", "env", "GOMODCACHE", "GOCACHE")
	vals := strings.Fields(goenv.stdout)
	env := append([]string{"GOMODCACHE=" + vals[0], "GOCACHE=" + vals[1], "GOFLAGS="}, gitEnv...)
	if err := os.MkdirAll(filepath.Join(repo, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := run(t, repo, env, gr, "build", "--snapshot", "--single-target", "--clean", "--output", filepath.Join(repo, "out", "ckptlint"))
	if r.code != 0 {
		t.Fatalf("goreleaser build --snapshot --single-target: %v", r)
	}
	v := run(t, repo, nil, filepath.Join(repo, "out", "ckptlint"), "version")
	if v.code != 0 || !strings.Contains(v.stdout, "-snapshot+") || !strings.Contains(v.stdout, "docs:     main (a development build") {
		t.Errorf("ckptlint version of a snapshot: %v", v)
	}
}

func tarNames(t *testing.T, data []byte) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	gz, err := gzip.NewReader(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names[h.Name] = true
	}
	return names
}

func extract(t *testing.T, data []byte, name, dst string) {
	t.Helper()
	gz, err := gzip.NewReader(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err != nil {
			t.Fatalf("%s not in the archive: %v", name, err)
		}
		if h.Name != name {
			continue
		}
		f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o755)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(f, bufio.NewReader(tr)); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		return
	}
}
