// Package scan runs the deployment sources (internal/deploy/...) over the
// deployment files discovery read and collects what they declare into one
// deploy.Model. Each source reads only the bytes given and, for the files
// it refers to (a compose file's .env, a Dockerfile's build context, a
// chart's templates), asks the Repo, which the run serves within its
// repository boundary and input budget (docs/deployment.md).
package scan

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ckptlint/ckptlint/internal/deploy"
	"github.com/ckptlint/ckptlint/internal/deploy/cm"
	"github.com/ckptlint/ckptlint/internal/deploy/compose"
	"github.com/ckptlint/ckptlint/internal/deploy/dockerfile"
	"github.com/ckptlint/ckptlint/internal/deploy/kube"
	"github.com/ckptlint/ckptlint/internal/deploy/render"
	"github.com/ckptlint/ckptlint/internal/deploy/shell"
)

// File is one deployment file: its display path, kind (deploy.Kind*) and
// bytes.
type File struct {
	// Path is the file's OS path (its directory names a compose project
	// when nothing else does).
	Path string
	Disp string
	Kind string
	Src  []byte
}

// Repo serves the other files of the repository a deployment file refers
// to, by display path, within the run's boundary and budget.
type Repo interface {
	// Read reads a file.
	Read(disp string) ([]byte, error)
	// List lists the regular files under a directory, at most max.
	List(dir string, max int) (files []string, truncated bool)
	// Inside tells whether a path lies inside the repository.
	Inside(disp string) bool
}

// Limits are the rendering limits of Helm charts and kustomizations.
var Limits = render.DefaultLimits

// scanner is one Model call.
type scanner struct {
	repo  Repo
	m     *deploy.Model
	seen  map[string]bool // compose projects read, by their files
	plain []*kube.Manifest
	// rendered are the manifests of each chart or kustomization, linked
	// among themselves.
	rendered [][]*kube.Manifest
	builds   map[string]*deploy.Build // Dockerfiles read, by display path and context
	read1    map[string]bool          // Dockerfiles read, by display path
	used     map[string]bool          // Dockerfiles a workload builds
}

// Model reads every file with the reader of its kind. A reader that fails
// or panics (a bug in a third-party parser) is a note naming the file;
// the other files are read.
func Model(files []File, repo Repo) *deploy.Model {
	s := &scanner{repo: repo, m: &deploy.Model{}, seen: map[string]bool{}, builds: map[string]*deploy.Build{}, read1: map[string]bool{}, used: map[string]bool{}}
	var charts, kusts []string
	for _, f := range files {
		switch f.Kind {
		case deploy.KindHelm:
			charts = append(charts, path.Dir(f.Disp))
		case deploy.KindKustomize:
			kusts = append(kusts, path.Dir(f.Disp))
		}
	}
	covered := map[string]bool{} // raw manifests a rendering reads
	for _, dir := range charts {
		s.guard(dir+"/Chart.yaml", "Helm chart", func() { s.helm(dir) })
	}
	s.kustomizations(kusts, covered)
	for _, f := range files {
		if f.Kind == deploy.KindKube && (covered[f.Disp] || underAny(f.Disp, charts)) {
			continue // rendered, with the chart or kustomization that reads it
		}
		s.guard(f.Disp, f.Kind, func() { s.read(f) })
	}
	if len(s.plain) > 0 {
		s.m.Notes = append(s.m.Notes, kube.Link(s.plain)...)
		byDir(s.plain)
		s.addManifests(s.plain)
	}
	for _, ms := range s.rendered {
		s.addManifests(ms)
	}
	s.linkBuilds()
	return s.m
}

// guard runs fn, a panic in it (a bug in a third-party parser) becoming a
// note naming the file.
func (s *scanner) guard(disp, kind string, fn func()) {
	defer func() {
		if v := recover(); v != nil {
			s.m.Notes = append(s.m.Notes, fmt.Sprintf("%s: not read as a %s file: the reader failed (%v)", disp, kind, v))
		}
	}()
	fn()
}

// read reads one file of a kind no rendering covers.
func (s *scanner) read(f File) {
	switch f.Kind {
	case deploy.KindCompose:
		s.compose(f)
	case deploy.KindKube:
		m, notes := kube.Read(f.Disp, f.Src)
		s.m.Notes = append(s.m.Notes, notes...)
		if m != nil {
			s.plain = append(s.plain, m)
		}
	case deploy.KindHelmOutput:
		s.helmOutput(f)
	case deploy.KindDockerfile:
		s.dockerfile(f.Disp, f.Src, "")
	case deploy.KindShell:
		r := shell.Read(f.Disp, f.Src)
		for _, w := range r.Workloads {
			// A host install: the processes a script starts see the files
			// it wrote (Text.Path) on the same host.
			w.Texts = append(w.Texts, r.Texts...)
		}
		s.m.Workloads = append(s.m.Workloads, r.Workloads...)
		s.m.Texts = append(s.m.Texts, r.Texts...)
		s.m.Versions = append(s.m.Versions, r.Versions...)
		s.m.Notes = append(s.m.Notes, r.Notes...)
	case deploy.KindVersions:
		vs, notes := cm.Versions(f.Disp, cm.KindOf(f.Disp), f.Src)
		s.m.Versions = append(s.m.Versions, vs...)
		s.m.Notes = append(s.m.Notes, notes...)
	}
}

// compose reads a compose project once, however many of its files
// (docker-compose.yml and its override) discovery found.
func (s *scanner) compose(f File) {
	dir := path.Dir(f.Disp)
	name := path.Base(dir)
	if f.Path != "" {
		name = filepath.Base(filepath.Dir(f.Path))
	}
	res := compose.Read(f.Disp, f.Src, s.repo.Read, compose.Options{DirName: name, Inside: s.repo.Inside})
	key := strings.Join(res.Files, "\x00")
	if s.seen[key] && key != "" {
		return
	}
	s.seen[key] = true
	s.m.Notes = append(s.m.Notes, res.Notes...)
	for i := range res.Workloads {
		s.m.Workloads = append(s.m.Workloads, &res.Workloads[i])
	}
}

// helm renders the chart in dir over the files under it.
func (s *scanner) helm(dir string) {
	files, truncated := s.repo.List(dir, Limits.Files)
	if truncated {
		s.m.Notes = append(s.m.Notes, fmt.Sprintf("%s: helm chart not rendered: more than %d files", dir, Limits.Files))
		return
	}
	out, err := render.Helm(render.Chart{Dir: dir, Files: files}, s.repo.Read, Limits)
	s.rendering(out, err)
}

// helmOutput reads the output of `helm template` as the rendering of a
// chart: each document at the template its `# Source:` comment names
// when that template is a file of the repository (the chart's directory
// is the working directory or one below it named as the chart), its
// lines mapped there as for a chart ckptlint renders itself; else at its
// own lines in f (standard input, "-").
func (s *scanner) helmOutput(f File) {
	docs, _ := render.SplitHelmOutput(f.Src)
	out := &render.Output{What: "helm template output on standard input", Source: "helm", Files: map[string][]byte{f.Disp: f.Src}}
	for _, d := range docs {
		src := f.Disp
		if t, b := s.template(d.Source); t != "" {
			src, out.Files[t] = t, b
		}
		out.Docs = append(out.Docs, render.Doc{Source: src, Text: d.Text})
	}
	s.rendering(out, nil)
}

// template finds the repository file of a `# Source:` name
// ("flink/templates/configmap.yaml": the chart's name, then the path in
// the chart): below the working directory as named, or, in a chart's own
// directory, without the chart's name. "" when neither is a file.
func (s *scanner) template(source string) (string, []byte) {
	if path.IsAbs(source) {
		return "", nil
	}
	cands := []string{source}
	if _, rest, ok := strings.Cut(source, "/"); ok {
		cands = append(cands, rest)
	}
	for _, c := range cands {
		if c = path.Clean(c); path.IsAbs(c) || c == ".." || strings.HasPrefix(c, "../") || !strings.Contains(c, "templates/") {
			continue
		}
		if b, err := s.repo.Read(c); err == nil {
			return c, b
		}
	}
	return "", nil
}

// kustomizations render each kustomization that no other one reads (a
// base is deployed through its overlays); the manifests a rendering read
// are covered.
func (s *scanner) kustomizations(dirs []string, covered map[string]bool) {
	outs := map[string]*render.Output{}
	for _, dir := range dirs {
		s.guard(dir+"/kustomization.yaml", "kustomization", func() {
			out, err := render.Kustomize(dir, s.repo.Read, Limits)
			if err != nil {
				s.m.Notes = append(s.m.Notes, err.Error())
				return
			}
			outs[dir] = out
		})
	}
	base := map[string]bool{}
	for dir, out := range outs {
		for f := range out.Files {
			covered[f] = true
			if d := path.Dir(f); d != dir && outs[d] != nil && isKustomization(f) {
				base[d] = true
			}
		}
	}
	keys := make([]string, 0, len(outs))
	for dir := range outs {
		keys = append(keys, dir)
	}
	sort.Strings(keys)
	for _, dir := range keys {
		if !base[dir] {
			s.rendering(outs[dir], nil)
		}
	}
}

func isKustomization(p string) bool {
	switch path.Base(p) {
	case "kustomization.yaml", "kustomization.yml", "Kustomization":
		return true
	}
	return false
}

// rendering takes the manifests of a rendered chart or kustomization.
func (s *scanner) rendering(out *render.Output, err error) {
	if err != nil {
		s.m.Notes = append(s.m.Notes, err.Error())
		return
	}
	s.m.Notes = append(s.m.Notes, out.Notes...)
	ms, notes := render.Manifests(out)
	s.m.Notes = append(s.m.Notes, notes...)
	s.m.Notes = append(s.m.Notes, kube.Link(ms)...)
	s.rendered = append(s.rendered, ms)
}

// addManifests adds the workloads and ConfigMaps of manifests.
func (s *scanner) addManifests(ms []*kube.Manifest) {
	for _, mf := range ms {
		for i := range mf.Workloads {
			s.m.Workloads = append(s.m.Workloads, &mf.Workloads[i])
		}
		for i := range mf.ConfigMaps {
			s.m.ConfigMaps = append(s.m.ConfigMaps, &mf.ConfigMaps[i])
		}
	}
}

// dockerfile reads a Dockerfile once.
func (s *scanner) dockerfile(disp string, src []byte, context string) *deploy.Build {
	key := disp + "\x00" + context
	if b, ok := s.builds[key]; ok {
		return b
	}
	b, notes := dockerfile.Read(disp, src, context)
	if _, again := s.read1[disp]; !again {
		s.m.Notes = append(s.m.Notes, notes...) // once per file, whatever its context
	}
	s.read1[disp] = true
	s.builds[key] = b
	return b
}

// linkBuilds fills the image a workload builds from its Dockerfile; the
// configuration a Dockerfile no workload builds writes into its image is
// linted where it is written.
func (s *scanner) linkBuilds() {
	for _, w := range s.m.Workloads {
		b := w.Build
		if b == nil || b.From != "" {
			continue
		}
		src, err := s.repo.Read(b.Dockerfile)
		if err != nil {
			s.m.Notes = append(s.m.Notes, fmt.Sprintf("%s: Dockerfile %s not read: %v", b.Loc, b.Dockerfile, err))
			continue
		}
		var got *deploy.Build
		s.guard(b.Dockerfile, deploy.KindDockerfile, func() { got = s.dockerfile(b.Dockerfile, src, b.Context) })
		if got == nil {
			continue
		}
		s.used[b.Dockerfile] = true
		cp := *got
		cp.Loc, cp.Context = b.Loc, b.Context
		w.Build = &cp
	}
	keys := make([]string, 0, len(s.builds))
	for k := range s.builds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		disp, _, _ := strings.Cut(k, "\x00")
		if b := s.builds[k]; b != nil && !s.used[disp] && strings.HasSuffix(k, "\x00") {
			s.m.Texts = append(s.m.Texts, b.Texts...)
			s.m.Versions = append(s.m.Versions, b.Versions...)
		}
	}
}

// byDir makes the workloads of plain manifests in different directories
// different clusters: k8s/staging and k8s/prod holding the same
// Deployments (same names, no namespace) are two deployments, not one
// with twice the TaskManagers. A directory holds one cluster's manifests
// as Flink's "Kubernetes Setup" lays them out.
func byDir(ms []*kube.Manifest) {
	dirs := map[string]bool{}
	for _, mf := range ms {
		if len(mf.Workloads) > 0 {
			dirs[path.Dir(mf.Path)] = true
		}
	}
	if len(dirs) < 2 {
		return
	}
	for _, mf := range ms {
		for i := range mf.Workloads {
			if w := &mf.Workloads[i]; w.Group != "" {
				w.Group = path.Dir(mf.Path) + ": " + w.Group
			}
		}
	}
}

// underAny reports whether p lies under one of dirs.
func underAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if d == "." || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}
