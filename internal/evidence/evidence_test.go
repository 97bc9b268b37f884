package evidence

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func render(items []Item, root string) string {
	var b strings.Builder
	for _, it := range items {
		rel, _ := filepath.Rel(root, it.Path)
		fmt.Fprintf(&b, "%s %s %s %s:%d d%d | %s\n", it.Product, it.Version, it.Kind, filepath.ToSlash(rel), it.Line, it.Dist, it.What)
	}
	return b.String()
}

// TestNear reads each evidence source from the fixtures of testdata/repo,
// one directory per source, searching from its conf/ directory up to the
// fixture root.
func TestNear(t *testing.T) {
	root, _ := filepath.Abs("testdata/repo")
	cases := map[string]string{
		"deploy": "flink 1.10.0 image deploy/Dockerfile:3 d1 | image flink:1.10.0-scala_2.12\n" +
			"hadoop 2.8.5 script deploy/Dockerfile:6 d1 | tarball hadoop-2.8.5.tar.gz\n",
		"compose": "flink 1.14.6 image compose/docker-compose.yml:3 d1 | image apache/flink:1.14.6-scala_2.12-java11\n" +
			"hadoop 3.2.1 image compose/docker-compose.yml:8 d1 | image bde2020/hadoop-namenode:2.0.0-hadoop3.2.1-java8\n",
		"k8s": "flink 1.13.6 image k8s/jobmanager.yaml:10 d1 | image flink:1.13.6@sha256:0123\n",
		"helm": "flink 1.16.3 image helm/values.yaml:3 d1 | image docker.io/library/flink:1.16.3\n" +
			"hadoop 3.3.6 image helm/values.yaml:7 d1 | image apache/hadoop:3.3.6\n",
		"maven": "flink 1.15.4 build maven/pom.xml:4 d1 | <flink.version>1.15.4</flink.version> in pom.xml\n" +
			"hadoop 3.1.1 build maven/pom.xml:11 d1 | org.apache.hadoop dependency version 3.1.1 in pom.xml\n",
		"gradle": "flink 1.12.7 build gradle/build.gradle:2 d1 | flinkVersion = '1.12.7' in build.gradle\n" +
			"hadoop 2.10.2 build gradle/build.gradle:5 d1 | dependency org.apache.hadoop:hadoop-common:2.10.2 in build.gradle\n",
		"scripts": "flink 1.11.6 script scripts/install.sh:2 d1 | FLINK_VERSION=1.11.6\n" +
			"flink 1.11.6 script scripts/install.sh:3 d1 | tarball flink-1.11.6-bin-scala_2.12.tgz\n",
		"hadoop": "",
	}
	for dir, want := range cases {
		t.Run(dir, func(t *testing.T) {
			items, notes := NewFinder(Limits{}).Near(filepath.Join(root, dir, "conf"), root)
			if got := render(items, root); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
			if len(notes) > 0 {
				t.Errorf("notes: %v", notes)
			}
		})
	}
}

// TestNearStopsAtRoot: nothing above the root is read, and without a root
// only the directory itself is.
func TestNearStopsAtRoot(t *testing.T) {
	root, _ := filepath.Abs("testdata/repo/deploy/conf")
	if items, _ := NewFinder(Limits{}).Near(root, root); len(items) != 0 {
		t.Errorf("read above the root: %v", items)
	}
	if items, _ := NewFinder(Limits{}).Near(root, ""); len(items) != 0 {
		t.Errorf("read above the directory without a root: %v", items)
	}
}

// TestLimits: files past a limit are noted, not read, and nothing fails.
func TestLimits(t *testing.T) {
	root, _ := filepath.Abs("testdata/repo")
	items, notes := NewFinder(Limits{MaxFileBytes: 10}).Near(filepath.Join(root, "compose", "conf"), root)
	if len(items) != 0 || len(notes) == 0 || !strings.Contains(notes[0].Reason, "up to 10 bytes") {
		t.Errorf("items %v notes %v", items, notes)
	}
}

// TestUnparsable: a broken file is noted with why; symlinks are not followed,
// and a FIFO named like a candidate is never opened for a blocking read.
func TestUnparsable(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "values.yaml"), []byte("image: [unclosed\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "run.sh"), []byte("if then fi (\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "pom.xml"), []byte("<project><properties><flink.version>1.17</properties>"), 0o644))
	outside := t.TempDir()
	must(t, os.WriteFile(filepath.Join(outside, "Dockerfile"), []byte("FROM flink:1.9\n"), 0o644))
	if err := os.Symlink(filepath.Join(outside, "Dockerfile"), filepath.Join(dir, "Dockerfile")); err != nil {
		t.Skip(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "docker-compose.yml"), 0o644); err != nil {
		t.Skip(err)
	}
	items, notes := NewFinder(Limits{}).Near(dir, dir)
	if len(items) != 0 {
		t.Errorf("items from broken or linked files: %v", items)
	}
	if len(notes) != 3 {
		t.Errorf("want 3 notes, got %v", notes)
	}
}

func TestImageVersion(t *testing.T) {
	for ref, want := range map[string]string{
		"flink:1.17.1-scala_2.12-java11":                  "flink 1.17.1",
		"flink:1.18":                                      "flink 1.18",
		"registry.example.com:5000/flink:1.20.0":          "flink 1.20.0",
		"flink:latest":                                    "",
		"flink":                                           "",
		"flink:scala_2.12-java11":                         "",
		"apache/flink-kubernetes-operator:1.9.0":          "",
		"myorg/flink-job:2.0.1":                           "",
		"flink:${FLINK_VERSION}":                          "",
		"apache/hadoop:3.3.6":                             "hadoop 3.3.6",
		"bde2020/hadoop-datanode:2.0.0-hadoop2.7.4-java8": "hadoop 2.7.4",
		"bde2020/hadoop-base:latest":                      "",
	} {
		p, v, ok := ImageVersion(ref)
		got := ""
		if ok {
			got = p + " " + v
		}
		if got != want {
			t.Errorf("%s: got %q, want %q", ref, got, want)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkNear searches from each of the fixture repository's eight conf/
// directories with a fresh Finder: every candidate file is read and parsed
// once, and the shared root once.
func BenchmarkNear(b *testing.B) {
	root, _ := filepath.Abs("testdata/repo")
	dirs, _ := os.ReadDir(root)
	for b.Loop() {
		f := NewFinder(Limits{})
		for _, d := range dirs {
			f.Near(filepath.Join(root, d.Name(), "conf"), root)
		}
	}
}

// FuzzParsers: no input makes a parser panic or hang (safeParse would turn a
// panic into a note; this finds them).
func FuzzParsers(f *testing.F) {
	for _, s := range []string{"FROM flink:1.17\nRUN echo \\\n  x", "image: flink:1.17\n", "<project><properties><flink.version>1.17</flink.version></properties></project>",
		"flinkVersion = '1.17.1'", "flink.version=1.17", "FLINK_VERSION=1.17; curl flink-1.17.1-bin-scala_2.12.tgz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range []parser{parseDockerfile, parseYAML, parsePOM, parseGradle, parseGradleProperties, parseShellFile} {
			_, _ = p("x", []byte(s))
		}
	})
}

// TestHostileNesting: a script nested deeper than the shell parser can
// recurse is a note, never a crash (300,000 nested '(' in a 300 KB
// install.sh overflowed mvdan.cc/sh's stack: a fatal error, not a panic
// safeParse could recover).
func TestHostileNesting(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "install.sh"), []byte("FLINK_VERSION=1.17.1\n"+strings.Repeat("(", 300000)), 0o644))
	items, notes := NewFinder(Limits{}).Near(dir, dir)
	if len(items) != 0 || len(notes) != 1 || !strings.Contains(notes[0].Reason, "nested more than 200 levels") {
		t.Errorf("items %v notes %v", items, notes)
	}
}

// TestDockerfileNames: every Dockerfile* name is read (Dockerfile_env,
// flink.Dockerfile, Containerfile), never an editor's or merge tool's
// backup of one, nor BuildKit's Dockerfile.dockerignore.
func TestDockerfileNames(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"Dockerfile_env":          "FROM flink:1.16.3\n",
		"flink.Dockerfile":        "FROM flink:1.15.4\n",
		"Containerfile":           "FROM flink:1.14.6\n",
		"Dockerfile.bak":          "FROM flink:1.9.0\n",
		"Dockerfile.orig":         "FROM flink:1.9.1\n",
		"Dockerfile~":             "FROM flink:1.9.2\n",
		".#Dockerfile":            "FROM flink:1.9.3\n",
		"Dockerfile.dockerignore": "FROM flink:1.9.4\n",
	} {
		must(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	items, notes := NewFinder(Limits{}).Near(dir, dir)
	got := render(items, dir)
	want := "flink 1.14.6 image Containerfile:1 d0 | image flink:1.14.6\n" +
		"flink 1.16.3 image Dockerfile_env:1 d0 | image flink:1.16.3\n" +
		"flink 1.15.4 image flink.Dockerfile:1 d0 | image flink:1.15.4\n"
	if got != want || len(notes) != 0 {
		t.Errorf("got\n%s\nwant\n%s\nnotes %v", got, want, notes)
	}
}

// TestFlinkDeploymentImages: the images of a FlinkDeployment document are
// marked as that deployment's; those of any other document (a pod's
// Deployment, a compose service) in the same file are not.
func TestFlinkDeploymentImages(t *testing.T) {
	src := `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: a
spec:
  image: flink:1.20
  podTemplate:
    spec:
      containers:
        - name: flink-main-container
          image: flink:1.20.1
---
apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - image: flink:1.17.2
---
spec:
  kind: FlinkDeployment
  image: flink:1.18
`
	items, err := parseYAML("/r/m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range items {
		got = append(got, fmt.Sprintf("%s:%d %v", it.Version, it.Line, it.Deployment))
	}
	want := "1.20:6 true, 1.20.1:11 true, 1.17.2:19 false, 1.18:23 false"
	if s := strings.Join(got, ", "); s != want {
		t.Errorf("got %s, want %s", s, want)
	}
}
