package renderer

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"net"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sigs.k8s.io/kustomize/api/types"

	"github.com/ckptlint/ckptlint/internal/deploy"
	"github.com/ckptlint/ckptlint/internal/deploy/kube"
	"github.com/ckptlint/ckptlint/internal/deploy/render"
	"github.com/ckptlint/ckptlint/internal/format/flinkconf"
)

// TestMain makes the test binary the renderer of its own tests, as
// ckptlint-render is ckptlint's.
func TestMain(m *testing.M) {
	ServeChild()
	if self, err := os.Executable(); err == nil {
		render.Executable = self
	}
	flag.Parse()
	os.Exit(m.Run())
}

// readTestdata is the Read callback over testdata, display paths relative
// to it; it counts the reads.
func readTestdata(reads *[]string) render.Read {
	return func(p string) ([]byte, error) {
		if reads != nil {
			*reads = append(*reads, p)
		}
		if strings.HasPrefix(p, "../") || filepath.IsAbs(p) {
			return nil, errors.New("outside the repository")
		}
		return os.ReadFile(filepath.Join("testdata", filepath.FromSlash(p)))
	}
}

// chartFiles lists a chart's files as discovery would.
func chartFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(filepath.Join("testdata", dir), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel("testdata", p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func workload(t *testing.T, ms []*kube.Manifest, name string) deploy.Workload {
	t.Helper()
	for _, m := range ms {
		for _, w := range m.Workloads {
			if w.Name == name {
				return w
			}
		}
	}
	t.Fatalf("no workload %s", name)
	return deploy.Workload{}
}

func configMap(t *testing.T, ms []*kube.Manifest, name string) deploy.ConfigMap {
	t.Helper()
	for _, m := range ms {
		for _, cm := range m.ConfigMaps {
			if cm.Name == name {
				return cm
			}
		}
	}
	t.Fatalf("no ConfigMap %s", name)
	return deploy.ConfigMap{}
}

// TestHelm renders the chart with values-prod.yaml over values.yaml, as
// `helm template release-name flink-chart -f flink-chart/values-prod.yaml`
// does, and reads every fact at its template.
func TestHelm(t *testing.T) {
	// A cluster that must never be asked: lookup runs without one.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var dialed atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			dialed.Add(1)
			c.Close()
		}
	}()
	kubeconfig := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(kubeconfig, fmt.Appendf(nil, "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: \"http://%s\"}\ncontexts:\n- name: c\n  context: {cluster: c}\ncurrent-context: c\n", ln.Addr()), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", kubeconfig)
	t.Setenv("HTTP_PROXY", "http://"+ln.Addr().String())

	var reads []string
	c := render.Chart{Dir: "flink-chart", Files: chartFiles(t, "flink-chart"), Values: []string{"flink-chart/values-prod.yaml"}}
	out, err := render.Helm(c, readTestdata(&reads), render.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if dialed.Load() != 0 {
		t.Errorf("rendering connected %d times to the cluster of KUBECONFIG", dialed.Load())
	}
	var sources []string
	for _, d := range out.Docs {
		sources = append(sources, d.Source)
	}
	if got := strings.Join(sources, " "); got != "flink-chart/templates/configmap.yaml flink-chart/templates/hadoop-configmap.yaml flink-chart/templates/jobmanager.yaml flink-chart/templates/taskmanager.yaml" {
		t.Errorf("documents from %s (NOTES.txt, partials and .helmignore'd files are not rendered)", got)
	}
	ms, notes := render.Manifests(out)
	notes = append(notes, kube.Link(ms)...)
	if len(notes) > 0 {
		t.Errorf("notes %q", notes)
	}
	tm := workload(t, ms, "Deployment/release-name-taskmanager")
	if tm.Replicas != 6 || tm.ReplicasLoc != (deploy.Loc{File: "flink-chart/templates/taskmanager.yaml", Line: 6}) {
		t.Errorf("TaskManagers %d at %v, want 6 (values-prod.yaml) at taskmanager.yaml:6", tm.Replicas, tm.ReplicasLoc)
	}
	if tm.Source != "helm" || tm.Role != deploy.RoleTaskManager || tm.RoleLoc.Line != 16 || tm.Group != "default/release-name" {
		t.Errorf("TaskManager %+v", tm)
	}
	if tm.Image != "flink:1.19.1-scala_2.12" || tm.ImageLoc.Line != 15 {
		t.Errorf("image %q at %v", tm.Image, tm.ImageLoc)
	}
	jm := workload(t, ms, "Deployment/release-name-jobmanager")
	if len(jm.Mounts) != 2 || jm.Mounts[1].Volume.Name != "release-name-hadoop-config" || jm.Mounts[1].Loc.Line != 24 {
		t.Errorf("JobManager mounts %+v", jm.Mounts)
	}
	cm := configMap(t, ms, "release-name-flink-config")
	// A block with placeholders: its rendered content, at its key.
	if c := cm.Data["config.yaml"]; c.Exact || c.Loc != (deploy.Loc{File: "flink-chart/templates/configmap.yaml", Line: 8}) ||
		!strings.Contains(string(c.Src), "taskmanager.numberOfTaskSlots: 4\n") {
		t.Errorf("config.yaml: exact %v at %v: %q", c.Exact, c.Loc, c.Src)
	}
	// A block the template copies verbatim: Exact in the template.
	l4 := cm.Data["log4j-console.properties"]
	tpl, _ := os.ReadFile("testdata/flink-chart/templates/configmap.yaml")
	if !l4.Exact || l4.Container != "flink-chart/templates/configmap.yaml" || string(l4.Src[l4.Start:]) != string(tpl[l4.Start:l4.End]) ||
		!strings.HasPrefix(string(tpl[l4.Start:]), "rootLogger.level = INFO") || l4.Loc.Line != 12 {
		t.Errorf("log4j-console.properties: %+v", l4)
	}
	// .Files.Get of a chart file: Exact in that file.
	hc := configMap(t, ms, "release-name-hadoop-config")
	core := hc.Data["core-site.xml"]
	if !core.Exact || core.Container != "flink-chart/conf/core-site.xml" || core.Start != 0 || core.Loc.Line != 1 {
		t.Errorf("core-site.xml: exact %v in %s from %d", core.Exact, core.Container, core.Start)
	}
	// No cluster, no DNS: lookup finds nothing, getHostByName gives "".
	if v := string(hc.Data["keytab-found"].Src); v != "no" {
		t.Errorf("lookup found a Secret: %q", v)
	}
	if v := string(hc.Data["dns"].Src); v != "" {
		t.Errorf("getHostByName resolved to %q", v)
	}
	for _, r := range reads {
		if strings.HasSuffix(r, ".orig") {
			continue // read (discovery listed it), then ignored by .helmignore
		}
		if !strings.HasPrefix(r, "flink-chart/") {
			t.Errorf("read %s", r)
		}
	}
}

// TestKustomize builds the prod overlay: the base's resources, the patch,
// the generated ConfigMap (Exact in its file), the remote resource left
// out with a note.
func TestKustomize(t *testing.T) {
	out, err := render.Kustomize("kustomize/overlays/prod", readTestdata(nil), render.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ms, notes := render.Manifests(out)
	want := "kustomize/overlays/prod/kustomization.yaml:6: resource https://raw.githubusercontent.com/example/flink-extras/main/service.yaml is remote: not fetched (ckptlint never touches the network), built without it"
	if len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q, want %q", notes, want)
	}
	tm := workload(t, ms, "Deployment/flink-taskmanager")
	if tm.Replicas != 8 || tm.Source != "kustomize" || tm.Loc.File != "kustomize/base/taskmanager.yaml" || tm.Group != "flink-prod/flink" {
		t.Errorf("TaskManager %d from %v (%s), group %q", tm.Replicas, tm.Loc, tm.Source, tm.Group)
	}
	if tm.RoleLoc != (deploy.Loc{File: "kustomize/base/taskmanager.yaml", Line: 15}) {
		t.Errorf("role at %v", tm.RoleLoc)
	}
	cm := configMap(t, ms, "flink-config")
	conf := cm.Data["flink-conf.yaml"]
	if !conf.Exact || conf.Container != "kustomize/overlays/prod/conf/flink-conf.yaml" {
		t.Fatalf("flink-conf.yaml: exact %v in %s", conf.Exact, conf.Container)
	}
	f := flinkconf.Parse(conf.Container, conf.Src)
	if len(f.Entries) != 3 || f.Entries[2].Key != "state.checkpoints.dir" || f.Entries[2].KeySpan.Start.Line != 3 {
		t.Errorf("entries %+v", f.Entries)
	}
	if p := cm.Data["parallelism"]; p.Exact || string(p.Src) != "4" || p.Loc != (deploy.Loc{File: "kustomize/overlays/prod/kustomization.yaml", Line: 13}) {
		t.Errorf("literal: %+v", p)
	}
	hs := configMap(t, ms, "hadoop-config").Data["hdfs-site.xml"]
	if !hs.Exact || hs.Container != "kustomize/overlays/prod/hadoop-config.yaml" || hs.Loc.Line != 6 {
		t.Errorf("hdfs-site.xml: exact %v in %s at %v", hs.Exact, hs.Container, hs.Loc)
	}
}

// TestSplitHelmOutput reads `helm template` output from standard input.
// TestHostileCharts: templates that loop, recurse or write a huge output
// are stopped within the limits, with an error naming the chart.
func TestHostileCharts(t *testing.T) {
	lim := render.DefaultLimits
	lim.Time, lim.Memory = 5*time.Second, 256<<20
	for _, tc := range []struct{ name, tpl, want string }{
		{"range over a huge until", `{{ range until 2000000000 }}x{{ end }}`, "helm chart hostile not rendered: "},
		{"nested loops", `{{ range until 100000 }}{{ range until 100000 }}{{ end }}{{ end }}`, "rendering took longer than 5s and was stopped"},
		{"include of itself", `{{ define "a" }}{{ include "a" . }}{{ end }}{{ include "a" . }}`, "rendering template has a nested reference name: a"},
		{"include twice of itself", `{{ define "a" }}{{ include "a" . }}{{ include "a" . }}{{ end }}{{ include "a" . }}`, "helm chart hostile not rendered: "},
		{"huge output", "a: |\n{{ range until 1100000 }}  xxxxxxxxxxxxxx\n{{ end }}", "the rendered output is over 16777216 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string][]byte{
				"hostile/Chart.yaml":          []byte("apiVersion: v2\nname: hostile\nversion: 1.0.0\n"),
				"hostile/templates/loop.yaml": []byte(tc.tpl),
			}
			read := func(p string) ([]byte, error) { return files[p], nil }
			start := time.Now()
			_, err := render.Helm(render.Chart{Dir: "hostile", Files: []string{"hostile/Chart.yaml", "hostile/templates/loop.yaml"}}, read, lim)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "helm chart hostile not rendered: ") || len(err.Error()) > 700 {
				t.Errorf("error %v, want one with %q", err, tc.want)
			}
			if d := time.Since(start); d > lim.Time+5*time.Second {
				t.Errorf("took %v", d)
			}
			t.Log(err)
		})
	}
}

// TestHelmEngineNoCluster renders in this process, with a kubeconfig and
// a proxy naming a listener: the engine has no cluster to ask, whatever
// the environment says, so lookup finds nothing and nothing connects.
func TestHelmEngineNoCluster(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var dialed atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			dialed.Add(1)
			c.Close()
		}
	}()
	kubeconfig := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(kubeconfig, fmt.Appendf(nil, "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: \"http://%s\"}\ncontexts:\n- name: c\n  context: {cluster: c}\ncurrent-context: c\n", ln.Addr()), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", kubeconfig)
	t.Setenv("HTTP_PROXY", "http://"+ln.Addr().String())
	t.Setenv("HTTPS_PROXY", "http://"+ln.Addr().String())
	files := map[string][]byte{
		"c/Chart.yaml": []byte("apiVersion: v2\nname: c\nversion: 1.0.0\n"),
		"c/templates/cm.yaml": []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n" +
			"  secret: {{ lookup \"v1\" \"Secret\" \"default\" \"s\" | toJson | quote }}\n" +
			"  list: {{ lookup \"v1\" \"Pod\" \"\" \"\" | toJson | quote }}\n" +
			"  host: {{ getHostByName \"kubernetes.default.svc\" | quote }}\n"),
	}
	out, err := renderHelm(render.Request{Kind: "helm", What: "helm chart c", Dir: "c", Files: files, Limits: render.DefaultLimits})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Docs) != 1 || !strings.Contains(string(out.Docs[0].Text), `secret: "{}"`) || !strings.Contains(string(out.Docs[0].Text), `list: "{}"`) ||
		!strings.Contains(string(out.Docs[0].Text), `host: ""`) {
		t.Errorf("rendered %q", out.Docs)
	}
	if dialed.Load() != 0 {
		t.Errorf("rendering connected %d times", dialed.Load())
	}
}

// TestHelmFilesOutsideChart: .Files holds the chart's own files only, so
// `.Files.Get` of a path that leads out of the chart (or is absolute) is
// empty, Glob finds nothing outside, and Read is asked for nothing but
// the chart's files; a file Read refuses (a symlink out of the repository)
// fails the chart with an error naming it, never a silent skip.
func TestHelmFilesOutsideChart(t *testing.T) {
	files := map[string][]byte{
		"c/Chart.yaml":  []byte("apiVersion: v2\nname: c\nversion: 1.0.0\n"),
		"c/conf/a.txt":  []byte("inside"),
		"secret.txt":    []byte("SECRET-OUTSIDE"),
		"c/../x/s.txt":  []byte("SECRET-OUTSIDE"),
		"/etc/passwd":   []byte("SECRET-OUTSIDE"),
		"../../outside": []byte("SECRET-OUTSIDE"),
		"c/templates/cm.yaml": []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n" +
			"  in: {{ .Files.Get \"conf/a.txt\" | quote }}\n" +
			"  up: {{ .Files.Get \"../secret.txt\" | quote }}\n" +
			"  upin: {{ .Files.Get \"conf/../../secret.txt\" | quote }}\n" +
			"  abs: {{ .Files.Get \"/etc/passwd\" | quote }}\n" +
			"  far: {{ .Files.Get \"../../../../../../../../etc/passwd\" | quote }}\n" +
			"  glob: {{ .Files.Glob \"../**\" | len | quote }}\n" +
			"  lines: {{ .Files.Lines \"../secret.txt\" | len | quote }}\n"),
	}
	var reads []string
	read := func(p string) ([]byte, error) {
		reads = append(reads, p)
		if b, ok := files[p]; ok {
			return b, nil
		}
		return nil, fs.ErrNotExist
	}
	chartFiles := []string{"c/Chart.yaml", "c/conf/a.txt", "c/templates/cm.yaml"}
	out, err := render.Helm(render.Chart{Dir: "c", Files: chartFiles}, read, render.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out.Docs[0].Text)
	for _, want := range []string{`in: "inside"`, `up: ""`, `upin: ""`, `abs: ""`, `far: ""`, `glob: "0"`, `lines: "0"`} {
		if !strings.Contains(got, want) {
			t.Errorf("rendered %q, want %s", got, want)
		}
	}
	if strings.Contains(got, "SECRET") {
		t.Errorf("a file outside the chart was rendered: %q", got)
	}
	if fmt.Sprint(reads) != fmt.Sprint(chartFiles) {
		t.Errorf("read %q, want the chart's files only", reads)
	}

	// A symlink out of the repository: the core's Read refuses it (its
	// bounded file system); here a Read over a real directory refuses
	// symlinks the same way, and the chart is not rendered.
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "passwd")
	if err := os.WriteFile(outside, []byte("SECRET-OUTSIDE"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string]string{"c/Chart.yaml": "apiVersion: v2\nname: c\nversion: 1.0.0\n", "c/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  p: {{ .Files.Get \"conf/passwd\" | quote }}\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "c/conf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "c/conf/passwd")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	noSymlinks := func(p string) ([]byte, error) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if fi, err := os.Lstat(full); err != nil {
			return nil, err
		} else if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, errors.New("a symlink: not followed")
		}
		return os.ReadFile(full)
	}
	_, err = render.Helm(render.Chart{Dir: "c", Files: []string{"c/Chart.yaml", "c/conf/passwd", "c/templates/cm.yaml"}}, noSymlinks, render.DefaultLimits)
	if err == nil || err.Error() != "helm chart c not rendered: c/conf/passwd: a symlink: not followed" {
		t.Errorf("error %v", err)
	}
}

// TestKustomizeHostile: a kustomization that names files outside the
// repository, an alias bomb, or builds a huge output, fails with an error
// naming the kustomization, its line and the limit.
func TestKustomizeHostile(t *testing.T) {
	aliasBomb := "resources: []\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 'b'; i <= 'z'; i++ {
		aliasBomb += fmt.Sprintf("%c: &%c [*%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n"
	big := strings.Repeat("x", 600<<10)
	lim := render.DefaultLimits
	lim.Output = 1 << 20
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"a resource out of the repository", map[string]string{"k/kustomization.yaml": "resources:\n- cm.yaml\n- ../../../../etc/passwd\n", "k/cm.yaml": cm},
			"kustomization k not rendered: k/kustomization.yaml:3: resource ../../../../etc/passwd: outside the repository"},
		{"a generator file out of the repository", map[string]string{"k/kustomization.yaml": "configMapGenerator:\n- name: g\n  files:\n  - conf=../../x/secret\n"},
			"kustomization k not rendered: k/kustomization.yaml:4: ../../x/secret: outside the repository"},
		{"a patch out of the kustomization's root", map[string]string{"k/kustomization.yaml": "resources: [cm.yaml]\npatches:\n- path: ../p.yaml\n", "k/cm.yaml": cm, "p.yaml": cm},
			"kustomization k not rendered: "},
		{"an alias bomb", map[string]string{"k/kustomization.yaml": aliasBomb},
			"kustomization k not rendered: k/kustomization.yaml: more than 50 aliases to mappings or lists (an alias bomb)"},
		{"a huge output", map[string]string{"k/kustomization.yaml": "configMapGenerator:\n- name: a\n  files: [big]\n- name: b\n  files: [big]\n", "k/big": big},
			"kustomization k not rendered: the built output is over 1048576 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			read := func(p string) ([]byte, error) {
				if strings.HasPrefix(path.Clean(p), "../") || path.IsAbs(p) {
					return nil, errors.New("outside the repository")
				}
				if b, ok := tc.files[p]; ok {
					return []byte(b), nil
				}
				return nil, fs.ErrNotExist
			}
			start := time.Now()
			_, err := render.Kustomize("k", read, lim)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || len(err.Error()) > 700 {
				t.Errorf("error %v, want %q", err, tc.want)
			}
			if d := time.Since(start); d > lim.Time {
				t.Errorf("took %v", d)
			}
			t.Log(err)
		})
	}
}

// TestKustomizationKeys: every key render.Kustomization reads is one
// kustomize's types.Kustomization reads, with the same shape, so the
// files ckptlint hands the renderer are the files kustomize asks for.
func TestKustomizationKeys(t *testing.T) {
	theirs := tags(reflect.TypeFor[types.Kustomization]())
	kinds := map[string][]reflect.Type{}
	for key, typ := range tags(reflect.TypeFor[render.Kustomization]()) {
		th, ok := theirs[key]
		if !ok {
			t.Errorf("render.Kustomization reads %q, which kustomize's types.Kustomization does not have", key)
			continue
		}
		if typ.Kind() != th.Kind() {
			t.Errorf("%q: render.Kustomization has a %v, kustomize a %v", key, typ.Kind(), th.Kind())
		}
		kinds[key] = []reflect.Type{typ, th}
	}
	// The elements' path and file keys too.
	for _, key := range []string{"patches", "patchesJson6902", "replacements", "configMapGenerator", "secretGenerator"} {
		ours, theirs := tags(kinds[key][0].Elem()), tags(kinds[key][1].Elem())
		for k := range ours {
			if _, ok := theirs[k]; !ok {
				t.Errorf("%s: render reads %q, which kustomize's %v does not have", key, k, kinds[key][1].Elem())
			}
		}
	}
}

// tags are a struct's fields by yaml key, inline fields' keys included.
func tags(typ reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for f := range typ.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "" && f.Anonymous {
			maps.Copy(out, tags(f.Type))
			continue
		}
		out[name] = f.Type
	}
	return out
}

// TestServeProtocol: a request of another protocol (a ckptlint of another
// release) is refused with both versions named, never rendered.
func TestServeProtocol(t *testing.T) {
	var stdout, stderr strings.Builder
	code := serve(strings.NewReader(`{"protocol":0,"kind":"helm","what":"helm chart c","files":{}}`), &stdout, &stderr)
	if code != 2 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "ckptlint-render speaks protocol 1 and ckptlint sent 0: install the two from one release") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
