package kube

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/deploy"
	"github.com/ckptlint/ckptlint/internal/format/flinkconf"
	"github.com/ckptlint/ckptlint/internal/format/flinkyaml"
	"github.com/ckptlint/ckptlint/internal/format/hadoopxml"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

var update = flag.Bool("update", false, "rewrite testdata/*.want.txt")

// readDir reads and links every manifest of a testdata directory.
func readDir(t *testing.T, dir string) ([]*Manifest, []string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in %s: %v", dir, err)
	}
	sort.Strings(files)
	var ms []*Manifest
	var notes []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, n := Read(filepath.ToSlash(strings.TrimPrefix(f, "testdata/")), src)
		ms = append(ms, m)
		notes = append(notes, n...)
	}
	return ms, append(notes, Link(ms)...)
}

// dump writes what the manifests declare, every Loc included.
func dump(ms []*Manifest, notes []string) string {
	var b strings.Builder
	for _, m := range ms {
		for _, w := range m.Workloads {
			fmt.Fprintf(&b, "workload %s (%s) at %s group %q\n", w.Name, w.Source, w.Loc, w.Group)
			fmt.Fprintf(&b, "  role %q at %s; replicas %d at %s; image %q at %s\n", w.Role, w.RoleLoc, w.Replicas, w.ReplicasLoc, w.Image, w.ImageLoc)
			for _, e := range w.Env {
				fmt.Fprintf(&b, "  env %s=%q at %s", e.Name, e.Value, e.Loc)
				if e.Unknown != "" {
					fmt.Fprintf(&b, " unknown: %s", e.Unknown)
				}
				if e.Text != nil {
					fmt.Fprintf(&b, " %s", textLine(e.Text))
				}
				b.WriteString("\n")
			}
			for _, mt := range w.Mounts {
				v := mt.Volume
				fmt.Fprintf(&b, "  mount %s sub %q ro %v at %s: %s %q path %q items %v modes %v per-pod %v at %s\n",
					mt.Path, mt.SubPath, mt.ReadOnly, mt.Loc, v.Kind, v.Name, v.Path, sortedItems(v.Items), v.AccessModes, v.PerPod, v.Loc)
			}
		}
		for _, cm := range m.ConfigMaps {
			fmt.Fprintf(&b, "configmap %s/%s at %s\n", cm.Namespace, cm.Name, cm.Loc)
			for _, k := range sortedKeys(cm.Data) {
				fmt.Fprintf(&b, "  %s\n", textLine(cm.Data[k]))
			}
		}
		for _, c := range m.Claims {
			fmt.Fprintf(&b, "claim %s/%s %v at %s\n", c.Namespace, c.Name, c.AccessModes, c.Loc)
		}
	}
	for _, n := range notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	return b.String()
}

func textLine(t *deploy.Text) string {
	s := fmt.Sprintf("text %s in %s at %s exact %v", t.Name, t.Container, t.Loc, t.Exact)
	if t.Exact {
		s += fmt.Sprintf(" [%d:%d] indent %d", t.Start, t.End, len(t.Indent))
	}
	return s + fmt.Sprintf(" content %q", clip(string(t.Content())))
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

func sortedItems(m map[string]string) []string {
	var out []string
	for _, k := range sortedKeys(m) {
		out = append(out, k+"→"+m[k])
	}
	return out
}

// TestGolden reads each testdata directory and compares what it declares
// with testdata/<dir>.want.txt (go test ./internal/deploy/kube -update
// rewrites them; review the diff).
func TestGolden(t *testing.T) {
	for _, dir := range []string{"flink-docs-1.17", "flink-docs-1.19", "other"} {
		t.Run(dir, func(t *testing.T) {
			got := dump(readDir(t, dir))
			want := filepath.Join("testdata", dir+".want.txt")
			if *update {
				if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			w, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(w) {
				t.Errorf("%s differs (-update rewrites it):\n%s", want, got)
			}
		})
	}
}

// find returns the workload named name.
func find(t *testing.T, ms []*Manifest, name string) deploy.Workload {
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

func configMap(t *testing.T, ms []*Manifest, name string) deploy.ConfigMap {
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

func entry(t *testing.T, f *parsed.File, key string) parsed.Entry {
	t.Helper()
	if f.Err != nil {
		t.Fatalf("%s: %v", f.Path, f.Err)
	}
	for _, e := range f.Entries {
		if e.Key == key {
			return e
		}
	}
	t.Fatalf("%s: no key %s", f.Path, key)
	return parsed.Entry{}
}

// TestFlinkDocs117 holds the session cluster of Flink 1.17's "Kubernetes
// Setup" to what Flink runs: a JobManager and two TaskManagers mounting
// flink-conf.yaml and log4j-console.properties of the flink-config
// ConfigMap at /opt/flink/conf, flink-conf.yaml read by Flink's own line
// parser at its lines in the manifest.
func TestFlinkDocs117(t *testing.T) {
	ms, notes := readDir(t, "flink-docs-1.17")
	if len(notes) > 0 {
		t.Errorf("notes: %q", notes)
	}
	jm := find(t, ms, "Deployment/flink-jobmanager")
	tm := find(t, ms, "Deployment/flink-taskmanager")
	if jm.Role != deploy.RoleJobManager || jm.RoleLoc.Line != 20 || tm.Role != deploy.RoleTaskManager || tm.Replicas != 2 {
		t.Errorf("roles %q@%v %q, TaskManagers %d", jm.Role, jm.RoleLoc, tm.Role, tm.Replicas)
	}
	if jm.Group != "default/flink" || tm.Group != jm.Group {
		t.Errorf("groups %q %q", jm.Group, tm.Group)
	}
	for _, w := range []deploy.Workload{jm, tm} {
		if len(w.Mounts) != 1 || w.Mounts[0].Volume.Kind != deploy.VolumeConfigMap || w.Mounts[0].Volume.Name != "flink-config" ||
			w.Mounts[0].Volume.Items["flink-conf.yaml"] != "flink-conf.yaml" || !strings.HasPrefix(w.Mounts[0].Path, "/opt/flink/conf") {
			t.Errorf("%s mounts %+v", w.Name, w.Mounts)
		}
	}
	cm := configMap(t, ms, "flink-config")
	conf := cm.Data["flink-conf.yaml"]
	if !conf.Exact || conf.Container != "flink-docs-1.17/flink-configuration-configmap.yaml" || conf.Loc.Line != 12 {
		t.Fatalf("flink-conf.yaml: %s", textLine(conf))
	}
	f := flinkconf.Parse(conf.Container, conf.Src)
	e := entry(t, f, "state.checkpoints.dir")
	if e.Value != "hdfs://namenode:8020/flink/checkpoints" || e.KeySpan.Start.Line != 22 || e.KeySpan.Start.Col != 5 {
		t.Errorf("state.checkpoints.dir %q at %+v, want line 22 column 5", e.Value, e.KeySpan.Start)
	}
	if len(f.Entries) != 10 {
		t.Errorf("%d entries, want 10 (the block ends before log4j-console.properties)", len(f.Entries))
	}
}

// TestFlinkDocs119 holds the 1.19+ layout (config.yaml) and the
// application cluster: config.yaml read as YAML at its lines, the Hadoop
// files of a second ConfigMap, env from a ConfigMap, a Secret and the
// downward API, the RWX claim and the StatefulSet's own claims.
func TestFlinkDocs119(t *testing.T) {
	ms, notes := readDir(t, "flink-docs-1.19")
	wantNotes := []string{}
	if strings.Join(notes, "\n") != strings.Join(wantNotes, "\n") {
		t.Errorf("notes %q", notes)
	}
	cm := configMap(t, ms, "flink-config")
	conf := cm.Data["config.yaml"]
	f := flinkyaml.ParseConfig(conf.Container, conf.Src)
	e := entry(t, f, "high-availability.storageDir")
	if e.Value != "hdfs:///flink/recovery" || e.KeySpan.Start.Line != 26 || e.KeySpan.Start.Col != 7 {
		t.Errorf("high-availability.storageDir %q at %+v, want 26:7", e.Value, e.KeySpan.Start)
	}
	hc := configMap(t, ms, "hadoop-config")
	// An XML declaration must start the document (XML 1.0 §2.8), and in
	// Src it follows the blanked lines before the block: blanked to the
	// same length here, so every other offset stays, as the core must do
	// before handing a Text to the XML reader.
	core := hc.Data["core-site.xml"]
	src := append([]byte(nil), core.Src...)
	decl := []byte(`<?xml version="1.0"?>`)
	if i := strings.Index(string(src), string(decl)); i != core.Start {
		t.Fatalf("declaration at %d, want the block's start %d", i, core.Start)
	}
	copy(src[core.Start:], strings.Repeat(" ", len(decl)))
	x := hadoopxml.Parse(core.Container, src, hadoopxml.Options{})
	if d := entry(t, x, "fs.defaultFS"); d.ValueSpan.Start.Line != 46 || d.ValueSpan.Start.Col != 16 {
		t.Errorf("fs.defaultFS value at %+v, want 46:16", d.ValueSpan.Start)
	}
	if hs := hc.Data["hdfs-site.xml"]; hs.Exact || !strings.Contains(string(hs.Src), "<value>64m</value>") || hs.Loc.Line != 49 {
		t.Errorf("hdfs-site.xml (double-quoted): %s", textLine(hs))
	}
	jm := find(t, ms, "Job/flink-jobmanager")
	env := map[string]deploy.EnvVar{}
	for _, e := range jm.Env {
		env[e.Name] = e
	}
	if e := env["CHECKPOINTS"]; e.Value != "hdfs:///flink/checkpoints" || e.Unknown != "" {
		t.Errorf("CHECKPOINTS from the ConfigMap: %+v", e)
	}
	if e := env["S3_SECRET"]; e.Value != "" || !strings.HasPrefix(e.Unknown, "secretKeyRef s3/secret") {
		t.Errorf("S3_SECRET: %+v", e)
	}
	if e := env["RPC"]; e.Value != "$(POD_IP):6123 /opt/hadoop/conf $(X)" {
		t.Errorf("RPC expanded to %q", e.Value)
	}
	if jm.Role != deploy.RoleStandaloneJob || jm.Replicas != 1 {
		t.Errorf("Job: role %q replicas %d", jm.Role, jm.Replicas)
	}
	var claim deploy.Volume
	for _, m := range jm.Mounts {
		if m.Path == "/checkpoints" {
			claim = m.Volume
		}
	}
	if claim.Kind != deploy.VolumeClaim || claim.Name != "flink-checkpoints" || fmt.Sprint(claim.AccessModes) != "[ReadWriteMany]" || claim.PerPod {
		t.Errorf("checkpoint claim %+v", claim)
	}
	tm := find(t, ms, "StatefulSet/flink-taskmanager/taskmanager")
	if tm.Role != deploy.RoleTaskManager || tm.Replicas != 3 {
		t.Errorf("StatefulSet: %q %d", tm.Role, tm.Replicas)
	}
	if sh := find(t, ms, "StatefulSet/flink-taskmanager/log-shipper"); sh.Role != "" {
		t.Errorf("the sidecar has role %q", sh.Role)
	}
	for _, m := range tm.Mounts {
		if m.Path == "/pv" && (!m.Volume.PerPod || m.Volume.Kind != deploy.VolumeClaim) {
			t.Errorf("/pv: %+v, want a per-pod claim", m.Volume)
		}
	}
	if len(tm.Env) < 1 || tm.Env[0].Name != "FLINK_PROPERTIES" || tm.Env[0].Text == nil || !tm.Env[0].Text.Exact {
		t.Errorf("envFrom with prefix FLINK_: %+v", tm.Env)
	}
}
