package pipeline

import (
	"archive/tar"
	"bytes"
	"debug/elf"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// The release image, built and run for real: the repository's Dockerfile,
// unchanged, over a build context laid out as GoReleaser's dockers_v2 lays
// it out (PLATFORM/BINARY), from binaries built as .goreleaser.yaml builds
// them. Only the base differs: gcr.io is not reachable from the test machine
// (its network reaches the Go module proxy, Debian and npm only), so
// gcr.io/distroless/static-debian12:nonroot and :debug-nonroot are not
// pulled; the tests import a stand-in with the contract distroless
// documents for them (GoogleContainerTools/distroless, base/base.bzl: user
// 65532 "nonroot" in /etc/passwd and /etc/group, working directory
// /home/nonroot, /etc/ssl/certs/ca-certificates.crt and SSL_CERT_FILE, /tmp
// with mode 1777, no shell; the debug variant adds busybox in /busybox,
// PATH=$PATH:/busybox and the entrypoint /busybox/sh) and pass it as the
// Dockerfile's BASE build argument. The stand-in's busybox is Debian's
// busybox-static (.ci/run installs it).
//
// The build is docker's classic builder (DOCKER_BUILDKIT=0) with
// TARGETPLATFORM passed as a build argument, which BuildKit (GoReleaser runs
// docker buildx) sets itself: Debian bookworm packages no buildx.

// Local image names: nothing here is pushed, and nothing is pulled.
const (
	testBase      = "ckptlint.test/distroless-static:nonroot"
	testBaseDebug = "ckptlint.test/distroless-static:debug-nonroot"
	testImage     = "ckptlint.test/ckptlint:test"
	testImageDbg  = "ckptlint.test/ckptlint:test-debug"
	testHelper    = "ckptlint.test/busybox:helper"
	nonrootUID    = 65532
)

// busyboxPath is Debian's busybox-static, the debug stand-in's shell.
const busyboxPath = "/bin/busybox"

// requireDocker returns the docker client once a daemon answers, or skips
// (fails under CI=true, where .ci/run installs docker.io and starts dockerd).
func requireDocker(t *testing.T) string {
	t.Helper()
	d := requireTool(t, "docker", "builds and runs the release image; .ci/run installs docker.io and starts dockerd")
	if r := run(t, root, nil, d, "info", "--format", "{{.ServerVersion}}"); r.code != 0 {
		msg := "no Docker daemon answers (.ci/run starts dockerd): " + r.String()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return d
}

// images is the pair of release images, built once per test binary.
type images struct{ plain, debug string }

var (
	imagesOnce sync.Once
	imagesErr  string
)

// releaseImages builds the two stand-in bases and the release image on each
// of them, once; a failure fails every test that asks.
func releaseImages(t *testing.T) images {
	t.Helper()
	docker := requireDocker(t)
	if _, err := os.Stat(busyboxPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s: %v; .ci/run installs busybox-static", busyboxPath, err)
		}
		t.Skipf("%s: %v; apt-get install busybox-static to run this test", busyboxPath, err)
	}
	imagesOnce.Do(func() { imagesErr = buildImages(docker) })
	if imagesErr != "" {
		t.Fatal(imagesErr)
	}
	return images{plain: testImage, debug: testImageDbg}
}

// The image configurations distroless gives its bases (base/base.bzl), and
// the helper image gitlab-ci-local's docker executor needs.
const distrolessPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

var stdBases = []struct {
	tag      string
	debug    bool // the root file system has busybox
	changes  []string
	programs []string // host programs copied in, with their shared libraries
}{
	{testBase, false, []string{"USER 65532", "WORKDIR /home/nonroot",
		"ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt", "ENV PATH=" + distrolessPath}, nil},
	{testBaseDebug, true, []string{"USER 65532", "WORKDIR /home/nonroot", `ENTRYPOINT ["/busybox/sh"]`,
		"ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt", "ENV PATH=" + distrolessPath + ":/busybox"}, nil},
	// gitlab-ci-local's docker executor runs two scripts as root in a
	// helper image (docker.io/firecow/gitlab-ci-local-util by default,
	// which is not reachable either): `sh -c "chown ... && chmod ..."` on
	// the build volume, and a bash script that copies the artifacts out
	// with rsync (src/job.ts, copyOut). Busybox and the host's bash and
	// rsync serve; this image is test machinery, not the one under test.
	{testHelper, true, []string{"ENV PATH=" + distrolessPath + ":/busybox"}, []string{"/bin/bash", "/usr/bin/rsync"}},
}

// buildImages does the work of releaseImages; it returns what failed.
func buildImages(docker string) string {
	tmp, err := os.MkdirTemp("", "ckptlint-image-")
	if err != nil {
		return err.Error()
	}
	defer func() { _ = os.RemoveAll(tmp) }() // best effort: a temporary directory
	// The previous run's images, children first, so that reruns do not
	// pile up untagged images; an image that is not there is no error.
	_ = runQuiet(tmp, nil, docker, "rmi", "--force", testImage, testImageDbg, testBase, testBaseDebug, testHelper)
	for _, b := range stdBases {
		if msg := importBase(docker, tmp, b.tag, b.debug, b.changes, b.programs); msg != "" {
			return msg
		}
	}
	platform := "linux/" + runtime.GOARCH
	ctx := filepath.Join(tmp, "context")
	if msg := buildContext(ctx, platform); msg != "" {
		return msg
	}
	for tag, base := range map[string]string{testImage: testBase, testImageDbg: testBaseDebug} {
		r := runQuiet(ctx, []string{"DOCKER_BUILDKIT=0"}, docker, "build", "--quiet", "--tag", tag,
			"--build-arg", "BASE="+base, "--build-arg", "TARGETPLATFORM="+platform, ".")
		if r.err != nil || r.code != 0 {
			return "docker build of the Dockerfile on " + base + ": " + errString(r)
		}
	}
	return ""
}

func errString(r result) string {
	if r.err != nil {
		return r.err.Error()
	}
	return r.String()
}

// importBase imports a stand-in root file system (debug: with busybox) as
// tag, with the image configuration changes.
func importBase(docker, tmp, tag string, debug bool, changes, programs []string) string {
	data, err := baseTar(debug, programs)
	if err != nil {
		return "the stand-in base: " + err.Error()
	}
	p := filepath.Join(tmp, "base.tar")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return err.Error()
	}
	args := []string{"import"}
	for _, c := range changes {
		args = append(args, "--change", c)
	}
	r := runQuiet(tmp, nil, docker, append(args, p, tag)...)
	if r.err != nil || r.code != 0 {
		return "docker import " + tag + ": " + errString(r)
	}
	return ""
}

// baseFile is one entry of the stand-in base.
type baseFile struct {
	name     string
	mode     int64
	uid      int
	body     []byte
	dir      bool
	linkname string // a symbolic link to this
}

// baseTar is the root file system of the stand-in base, as a tar archive.
func baseTar(debug bool, programs []string) ([]byte, error) {
	certs, err := os.ReadFile("/etc/ssl/certs/ca-certificates.crt")
	if err != nil {
		// ckptlint makes no TLS connection in these tests; the file is
		// there because distroless has it.
		certs = nil
	}
	files := []baseFile{
		{name: "etc/", dir: true, mode: 0o755},
		{name: "etc/passwd", mode: 0o644, body: []byte("root:x:0:0:root:/root:/sbin/nologin\n" +
			"nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n" +
			"nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n")},
		{name: "etc/group", mode: 0o644, body: []byte("root:x:0:\nnobody:x:65534:\ntty:x:5:\nstaff:x:50:\nnonroot:x:65532:\n")},
		{name: "etc/ssl/", dir: true, mode: 0o755},
		{name: "etc/ssl/certs/", dir: true, mode: 0o755},
		{name: "etc/ssl/certs/ca-certificates.crt", mode: 0o644, body: certs},
		{name: "home/", dir: true, mode: 0o755},
		{name: "home/nonroot/", dir: true, mode: 0o700, uid: nonrootUID},
		{name: "root/", dir: true, mode: 0o700},
		{name: "tmp/", dir: true, mode: 0o1777},
	}
	if debug {
		bb, err := os.ReadFile(busyboxPath)
		if err != nil {
			return nil, err
		}
		files = append(files, baseFile{name: "busybox/", dir: true, mode: 0o755},
			baseFile{name: "busybox/busybox", mode: 0o755, body: bb})
		// Every applet, as distroless's /busybox has them.
		list := runQuiet("/", nil, busyboxPath, "--list")
		if list.err != nil || list.code != 0 {
			return nil, errors.New(busyboxPath + " --list: " + errString(list))
		}
		for _, applet := range strings.Fields(list.stdout) {
			if applet != "busybox" {
				files = append(files, baseFile{name: "busybox/" + applet, linkname: "busybox"})
			}
		}
	}
	hostFiles, err := withLibraries(programs)
	if err != nil {
		return nil, err
	}
	return writeTar(append(files, hostFiles...))
}

// withLibraries reads host programs and the shared libraries ldd lists for
// them, each to be put at its own path.
func withLibraries(programs []string) ([]baseFile, error) {
	paths := slices.Clone(programs)
	for _, p := range programs {
		r := runQuiet("/", nil, "ldd", p)
		if r.err != nil || r.code != 0 {
			return nil, errors.New("ldd " + p + ": " + errString(r))
		}
		for _, line := range strings.Split(r.stdout, "\n") {
			// "libz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x...)" or
			// "/lib64/ld-linux-x86-64.so.2 (0x...)".
			f := strings.Fields(line)
			if len(f) >= 2 && strings.HasPrefix(f[len(f)-2], "/") && !slices.Contains(paths, f[len(f)-2]) {
				paths = append(paths, f[len(f)-2])
			}
		}
	}
	var files []baseFile
	for _, p := range paths {
		body, err := os.ReadFile(p) // through symbolic links
		if err != nil {
			return nil, err
		}
		files = append(files, baseFile{name: strings.TrimPrefix(p, "/"), mode: 0o755, body: body})
	}
	return files, nil
}

// writeTar archives files, in order, owned by root unless they say otherwise.
func writeTar(files []baseFile) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	mtime := time.Unix(0, 0)
	for _, f := range files {
		h := &tar.Header{Name: f.name, Mode: f.mode, Uid: f.uid, Gid: f.uid, ModTime: mtime, Typeflag: tar.TypeReg, Size: int64(len(f.body))}
		switch {
		case f.dir:
			h.Typeflag = tar.TypeDir
		case f.linkname != "":
			h.Typeflag, h.Linkname, h.Mode = tar.TypeSymlink, f.linkname, 0o777
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.body); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// buildContext lays out the context dockers_v2 gives the Dockerfile: the
// Dockerfile, and the binaries of every build under PLATFORM/, built with
// the env and flags of .goreleaser.yaml's builds (CGO_ENABLED=0,
// -trimpath) and their literal ldflags (-s -w; the version stamp is a
// GoReleaser template). TestReleaseBuilds checks that both builds share
// those.
func buildContext(ctx, platform string) string {
	var cfg struct {
		Builds []struct {
			Main    string   `yaml:"main"`
			Env     []string `yaml:"env"`
			Flags   []string `yaml:"flags"`
			Ldflags []string `yaml:"ldflags"`
		} `yaml:"builds"`
	}
	src, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		return err.Error()
	}
	if err := yaml.Unmarshal(src, &cfg); err != nil {
		return ".goreleaser.yaml: " + err.Error()
	}
	if err := copyFile(filepath.Join(root, "Dockerfile"), filepath.Join(ctx, "Dockerfile")); err != nil {
		return err.Error()
	}
	out := filepath.Join(ctx, filepath.FromSlash(platform)) + string(filepath.Separator)
	goos, goarch, _ := strings.Cut(platform, "/")
	// One go build of every main, which compiles their shared packages
	// once: the builds' env and flags are the same (TestReleaseBuilds).
	args := []string{"build", "-o", out}
	var env []string
	for i, b := range cfg.Builds {
		if i == 0 {
			var ldflags []string
			for _, l := range b.Ldflags {
				if !strings.Contains(l, "{{") {
					ldflags = append(ldflags, l)
				}
			}
			args = append(append(args, b.Flags...), "-ldflags="+strings.Join(ldflags, " "))
			env = append([]string{"GOOS=" + goos, "GOARCH=" + goarch}, b.Env...)
		}
		args = append(args, b.Main)
	}
	if r := runQuiet(root, env, "go", args...); r.err != nil || r.code != 0 {
		return "go " + strings.Join(args, " ") + ": " + errString(r)
	}
	return checkStatic(out)
}

// checkStatic makes sure every binary in dir is statically linked: the
// base has no libc.
func checkStatic(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err.Error()
	}
	for _, e := range entries {
		f, err := elf.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			return e.Name() + ": " + err.Error()
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				_ = f.Close()
				return e.Name() + " is dynamically linked (it has an ELF interpreter), yet the image has no libc"
			}
		}
		_ = f.Close()
	}
	return ""
}

// dockerRun runs an image with dir mounted at /work, as docs/ci.md shows
// (docker run -v "$PWD:/work"), without a network: ckptlint needs none.
func dockerRun(t *testing.T, dir string, args ...string) result {
	t.Helper()
	docker := requireDocker(t)
	return run(t, dir, nil, docker, append([]string{"run", "--rm", "--network", "none", "-v", dir + ":/work"}, args...)...)
}

// writable lets the image's nonroot user write the reports into dir.
func writable(t *testing.T, dir string) {
	t.Helper()
	// A test's temporary directory, written by uid 65532 in the container.
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
}

// TestImageLint runs the release image as a user runs it, `docker run
// --rm -v "$PWD:/work" IMAGE`: its default command lints /work, exits 1 on
// story (b)'s findings, which it prints, and 0 on the fixed story.
func TestImageLint(t *testing.T) {
	img := releaseImages(t)
	dir := t.TempDir()
	copyTree(t, story("stories", "b-directoryscanner"), dir)
	r := dockerRun(t, dir, img.plain)
	if r.code != 1 || !strings.Contains(r.stdout, "flink/flink-conf.yaml:11:1: warning: ") ||
		!strings.Contains(r.stdout, "[CKPT205 zero-tolerable-checkpoint-failures") {
		t.Errorf("docker run %s on story (b): want exit code 1 and its CKPT205 warning: %v", img.plain, r)
	}
	clean := t.TempDir()
	copyTree(t, story("stories-fixed", "b-directoryscanner"), clean)
	if r := dockerRun(t, clean, img.plain); r.code != 0 {
		t.Errorf("docker run %s on the fixed story (b): want exit code 0: %v", img.plain, r)
	}
	if r := dockerRun(t, clean, img.plain, "version"); r.code != 0 || !strings.Contains(r.stdout, "ckptlint") {
		t.Errorf("docker run %s version: %v", img.plain, r)
	}
}

// TestImageRunsAsNonroot checks that the image's process is distroless's
// nonroot user, 65532: the image declares it, and a report the image writes
// into the mounted directory is that user's.
func TestImageRunsAsNonroot(t *testing.T) {
	img := releaseImages(t)
	docker := requireDocker(t)
	for _, tag := range []string{img.plain, img.debug} {
		r := run(t, root, nil, docker, "image", "inspect", "--format", "{{.Config.User}} {{.Config.WorkingDir}} {{json .Config.Entrypoint}}", tag)
		if want := `65532 /work ["/usr/local/bin/ckptlint"]`; r.code != 0 || strings.TrimSpace(r.stdout) != want {
			t.Errorf("docker image inspect %s: want %s: %v", tag, want, r)
		}
	}
	dir := t.TempDir()
	copyTree(t, story("stories-fixed", "b-directoryscanner"), dir)
	writable(t, dir)
	if r := dockerRun(t, dir, img.plain, "lint", "--format", "junit=ckptlint-junit.xml", "."); r.code != 0 {
		t.Fatalf("docker run %s lint --format junit=...: %v", img.plain, r)
	}
	if uid := fileUID(t, filepath.Join(dir, "ckptlint-junit.xml")); uid != nonrootUID {
		t.Errorf("the report the image wrote is owned by uid %d, want %d (nonroot)", uid, nonrootUID)
	}
	if r := dockerRun(t, dir, "--entrypoint=", img.debug, "id", "-u"); r.code != 0 || strings.TrimSpace(r.stdout) != "65532" {
		t.Errorf("id -u in %s: want 65532: %v", img.debug, r)
	}
}

// TestImageRendersChart lints a Helm chart in the image: ckptlint finds
// ckptlint-render beside itself in /usr/local/bin, so the finding only a
// rendering shows is reported.
func TestImageRendersChart(t *testing.T) {
	img := releaseImages(t)
	dir := writeChart(t)
	r := dockerRun(t, dir, img.plain)
	if r.code != 1 || !strings.Contains(r.stdout, renderedFinding) || !strings.Contains(r.stdout, renderedRule) ||
		strings.Contains(r.stderr, "not rendered") {
		t.Errorf("docker run %s on a Helm chart: want exit code 1 and %q: %v", img.plain, renderedFinding+renderedRule, r)
	}
}

// fileUID is the owner of a file.
func fileUID(t *testing.T, p string) int {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		t.Skip("no owner in os.FileInfo on " + runtime.GOOS)
	}
	return int(sys.Uid)
}
