package pipeline

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
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
	Main   string   `yaml:"main"`
	Binary string   `yaml:"binary"`
	Goos   []string `yaml:"goos"`
	Goarch []string `yaml:"goarch"`
	Env    []string `yaml:"env"`
}

// releaseIDs are the builds of .goreleaser.yaml, by id, with the main
// package and binary of each: ckptlint and its renderer of Helm charts and
// kustomizations, which ckptlint runs from beside its own executable.
var releaseIDs = map[string][2]string{
	"ckptlint":        {"./cmd/ckptlint", "ckptlint"},
	"ckptlint-render": {"./cmd/ckptlint-render", "ckptlint-render"},
}

// TestReleaseBuilds checks that a release ships both executables alike:
// .goreleaser.yaml has one build per main package of the module (what `go
// install ./...` installs), the two differ in id, main and binary only
// (the same static flags, version stamp and targets), and the archive
// holds both.
func TestReleaseBuilds(t *testing.T) {
	var cfg struct {
		Builds   []map[string]any `yaml:"builds"`
		Archives []struct {
			IDs []string `yaml:"ids"`
		} `yaml:"archives"`
	}
	if err := yaml.Unmarshal([]byte(readFile(t, filepath.Join(root, ".goreleaser.yaml"))), &cfg); err != nil {
		t.Fatal(err)
	}
	mains := run(t, root, nil, "go", "list", "-f", `{{if eq .Name "main"}}{{.ImportPath}}{{end}}`, "./...")
	if mains.code != 0 {
		t.Fatalf("go list: %v", mains)
	}
	var wantMains []string
	for _, p := range strings.Fields(mains.stdout) {
		wantMains = append(wantMains, "./"+strings.TrimPrefix(p, "github.com/ckptlint/ckptlint/"))
	}
	var gotMains, ids []string
	var common map[string]any
	for _, b := range cfg.Builds {
		id, _ := b["id"].(string)
		main, _ := b["main"].(string)
		binary, _ := b["binary"].(string)
		ids = append(ids, id)
		gotMains = append(gotMains, main)
		if want, ok := releaseIDs[id]; !ok || main != want[0] || binary != want[1] {
			t.Errorf("build %s: main %q, binary %q; want one of %v", id, main, binary, releaseIDs)
		}
		rest := maps.Clone(b)
		delete(rest, "id")
		delete(rest, "main")
		delete(rest, "binary")
		if common == nil {
			common = rest
		} else if !reflect.DeepEqual(rest, common) {
			t.Errorf("build %s differs from build %s in more than id, main and binary:\n%v\n%v", id, ids[0], rest, common)
		}
	}
	slices.Sort(gotMains)
	slices.Sort(wantMains)
	if !slices.Equal(gotMains, wantMains) {
		t.Errorf(".goreleaser.yaml builds %v, want one build per main package of the module %v", gotMains, wantMains)
	}
	if len(cfg.Archives) != 1 || !sameSet(cfg.Archives[0].IDs, ids) {
		t.Errorf("archives %+v: want one archive with every build %v", cfg.Archives, ids)
	}
}

// sameSet says whether a and b hold the same strings.
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestReleaseImage checks the release image against what GoReleaser puts in
// its build context: the Dockerfile dockers_v2 names exists, is FROM a
// distroless or scratch base (pinned by tag, no shell to rely on), COPYs
// the binary of every build (ckptlint and ckptlint-render, which ckptlint
// finds beside itself) from ${TARGETPLATFORM}/, as dockers_v2 lays out the
// context, into /usr/local/bin, and runs ckptlint as its entrypoint; every
// platform is one the builds produce. It needs no Docker daemon;
// image_test.go builds this Dockerfile and runs the image.
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
	var all, binaries []string
	for _, b := range builds {
		all = append(all, b.ID)
		if !slices.Contains(ids, b.ID) {
			continue
		}
		binaries = append(binaries, b.Binary)
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
	if !sameSet(ids, all) {
		t.Errorf("dockers_v2 ids %v, want every build %v (ckptlint runs ckptlint-render from beside itself)", ids, all)
	}
	if !slices.Contains(binaries, "ckptlint") {
		t.Fatalf("dockers_v2 ids %v name no build of ckptlint", ids)
	}
	src := readFile(t, filepath.Join(root, dockerfile))
	var from, entry string
	var copied []string
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
			copied = append(copied, strings.Join(f[1:], " "))
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
	var want []string
	for _, b := range binaries {
		want = append(want, "${TARGETPLATFORM}/"+b+" /usr/local/bin/"+b)
	}
	if !sameSet(copied, want) {
		t.Errorf("%s: COPY %q, want COPY %q, one per binary (dockers_v2's context holds PLATFORM/BINARY)", dockerfile, copied, want)
	}
	if want := `["/usr/local/bin/ckptlint"]`; entry != want {
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
	for _, b := range cfg["builds"].([]any) {
		build := b.(map[string]any)
		build["goos"] = []string{runtime.GOOS}
		build["goarch"] = []string{runtime.GOARCH}
	}
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
	for _, want := range []string{"ckptlint", "ckptlint-render", "README.md", "LICENSE", "CHANGELOG.md", "SECURITY.md", "docs/ci.md",
		"docs/rules/CKPT101.md", "docs/schema/ckptlint-json.schema.json"} {
		if !names[want] {
			t.Errorf("%s lacks %s", archive, want)
		}
	}

	// The release binaries, extracted side by side as a user does: ckptlint
	// knows its version and commit, both are static, and ckptlint renders
	// a chart with the renderer beside it.
	bin := t.TempDir()
	exe := filepath.Join(bin, "ckptlint")
	extract(t, data, "ckptlint", exe)
	renderExe := filepath.Join(bin, "ckptlint-render")
	extract(t, data, "ckptlint-render", renderExe)
	v := run(t, repo, nil, exe, "version")
	commit := strings.TrimSpace(run(t, repo, gitEnv, "git", "rev-parse", "HEAD").stdout)
	for _, want := range []string{"ckptlint " + releaseTag + "\n", "commit:   " + commit + "\n", "modified: false\n", "docs:     " + releaseTag + "\n"} {
		if !strings.Contains(v.stdout, want) {
			t.Errorf("ckptlint version of the release lacks %q:\n%s", want, v.stdout)
		}
	}
	for _, b := range []string{exe, renderExe} {
		if f := run(t, repo, nil, "go", "version", "-m", b); !strings.Contains(f.stdout, "CGO_ENABLED=0") || !strings.Contains(f.stdout, "-trimpath=true") {
			t.Errorf("the release binary %s is not built with CGO_ENABLED=0 and -trimpath:\n%s", filepath.Base(b), f.stdout)
		}
	}
	if runtime.GOOS == "linux" {
		// Static: no ELF interpreter (PT_INTERP) to load libc with.
		for _, b := range []string{exe, renderExe} {
			if f, err := elf.Open(b); err != nil {
				t.Errorf("%s: %v", b, err)
			} else {
				for _, p := range f.Progs {
					if p.Type == elf.PT_INTERP {
						t.Errorf("the release binary %s is dynamically linked (PT_INTERP)", filepath.Base(b))
					}
				}
				_ = f.Close()
			}
		}
	}
	if r := run(t, repo, nil, renderExe); r.code != 2 || !strings.Contains(r.stderr, "ckptlint-render renders Helm charts and kustomizations for ckptlint") {
		t.Errorf("the release's ckptlint-render run by hand: %v\nwant exit code 2 and what it is", r)
	}
	checkRendered(t, "the release's ckptlint on a chart", run(t, writeChart(t), []string{"PATH=" + pathWithoutRenderer()}, exe, "lint", "--no-cache", "."))

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
	checkInstalled(t, ar)
}

// TestGoreleaserBuildSnapshot is the quick check a contributor runs:
// `goreleaser build --snapshot --single-target` with the published
// configuration, in a snapshot repository. It builds both executables
// (--output would copy one only, and only with --id), found through
// dist/artifacts.json.
func TestGoreleaserBuildSnapshot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ckptlint (-short)")
	}
	gr := requireGoreleaser(t)
	repo := releaseRepo(t)
	goenv := run(t, root, nil, "go", "env", "GOMODCACHE", "GOCACHE")
	vals := strings.Fields(goenv.stdout)
	env := append([]string{"GOMODCACHE=" + vals[0], "GOCACHE=" + vals[1], "GOFLAGS="}, gitEnv...)
	r := run(t, repo, env, gr, "build", "--snapshot", "--single-target", "--clean")
	if r.code != 0 {
		t.Fatalf("goreleaser build --snapshot --single-target: %v", r)
	}
	var artifacts []struct {
		Type  string         `json:"type"`
		Path  string         `json:"path"`
		Extra map[string]any `json:"extra"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(repo, "dist", "artifacts.json"))), &artifacts); err != nil {
		t.Fatal(err)
	}
	built := map[string]string{}
	for _, a := range artifacts {
		if id, _ := a.Extra["ID"].(string); a.Type == "Binary" {
			built[id] = filepath.Join(repo, a.Path)
		}
	}
	if len(built) != len(releaseIDs) || built["ckptlint"] == "" || built["ckptlint-render"] == "" {
		t.Fatalf("goreleaser build --single-target built %v, want one binary of each build %v", built, releaseIDs)
	}
	v := run(t, repo, nil, built["ckptlint"], "version")
	if v.code != 0 || !strings.Contains(v.stdout, "-snapshot+") || !strings.Contains(v.stdout, "docs:     main (a development build") {
		t.Errorf("ckptlint version of a snapshot: %v", v)
	}
	if r := run(t, repo, nil, built["ckptlint-render"]); r.code != 2 || !strings.Contains(r.stderr, "ckptlint-render renders Helm charts") {
		t.Errorf("ckptlint-render of a snapshot: %v", r)
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
