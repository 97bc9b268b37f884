// Package versions resolves the Flink and Hadoop versions of a config set
// from their sources, strongest first (docs/versions.md): the versions
// declared on the command line and in .ckptlint.hcl, the FlinkDeployment's
// spec.flinkVersion and spec.image, Flink's own image option, what the
// repository pins beside the set or above it (internal/evidence), and a lower
// bound from the files. It also says which fix operations hold only for
// some releases (NeedsVersion, NeedsHadoopVersion).
package versions

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/evidence"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/format/flinkyaml"
	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Declared are the versions given on the command line ("" when not given).
type Declared struct{ Flink, Hadoop string }

// Resolver resolves the versions of config sets. Evidence is searched
// once per directory; a Resolver is not safe for concurrent use.
type Resolver struct {
	// Declared are the versions given on the command line.
	Declared Declared
	// Config is .ckptlint.hcl (nil: none): flink_version, hadoop_version,
	// deployment and cluster blocks.
	Config *config.Config
	// Display renders a path for messages (nil: as it is).
	Display func(path string) string
	// Allow reports whether the run may read a directory (the read
	// boundary, internal/inputfs); nil allows every directory.
	Allow func(dir string) bool
	// FS is the file system the evidence is searched in (the run's).
	FS inputfs.FS

	ev    *evidence.Finder  // version evidence, searched once per directory
	roots map[string]string // directory → repository root
}

// Resolve sets the Flink and Hadoop versions of a set whose files lie
// in dir, strongest source first (docs/versions.md): --flink-version, then
// .ckptlint.hcl (deployment block, then top level), then the manifest's
// spec.flinkVersion and spec.image, then what the repository pins beside
// the set or above it (images, build files, scripts: internal/evidence), then
// a lower bound from the files, else not known. Every pin of another
// major.minor is kept as a conflict (reported as CKPT004).
func (a *Resolver) Resolve(s *model.Set, dep *config.Deployment, fd *flinkyaml.Deployment, dir string) {
	items, notes := a.evidenceNear(dir)
	var skipped []string
	for _, n := range notes {
		skipped = append(skipped, a.display(n.Path)+": "+n.Reason)
	}
	var manifestPath string
	if fd != nil && fd.Config != nil {
		manifestPath, _ = filepath.Abs(filepath.FromSlash(fd.Config.Path))
	}

	// Flink: the declarations, then the repository's pins.
	var fl []model.Evidence
	if a.Declared.Flink != "" {
		fl = append(fl, model.Evidence{Version: a.Declared.Flink, Source: "flag", What: "--flink-version"})
	}
	if dep != nil && dep.FlinkVersion != "" {
		fl = append(fl, model.Evidence{Version: dep.FlinkVersion, Source: "deployment",
			What: fmt.Sprintf("deployment %q in %s", dep.Name, a.cfgName())})
	}
	if a.Config != nil && a.Config.FlinkVersion != "" {
		fl = append(fl, model.Evidence{Version: a.Config.FlinkVersion, Source: "config", What: "flink_version in " + a.cfgName()})
	}
	if fd != nil && fd.FlinkVersion != "" {
		fl = append(fl, model.Evidence{Version: fd.FlinkVersion, Source: "manifest",
			What: "spec.flinkVersion " + fd.FlinkVersion, File: fd.Config.Path, Line: fd.FlinkVersionSpan.Start.Line})
	}
	if fd != nil && fd.Image != nil {
		if p, v, ok := evidence.ImageVersion(fd.Image.Value); ok && p == evidence.Flink {
			fl = append(fl, model.Evidence{Version: v, Source: "image",
				What: "spec.image " + fd.Image.Value, File: fd.Config.Path, Line: fd.Image.Span.Start.Line})
		}
	}
	// The image the deployment's processes run (internal/deploy): what
	// the repository's compose file or manifests start, joined to this
	// configuration, before any other pin of the repository.
	if d := s.Deployed; d != nil && d.Image != "" {
		if p, v, ok := evidence.ImageVersion(d.Image); ok && p == evidence.Flink {
			e := model.Evidence{Version: v, Source: "image", What: "image " + d.Image + " of " + d.Subject}
			if d.ImageLoc != nil {
				e.File, e.Line = d.ImageLoc.File, d.ImageLoc.Span.Start.Line
			}
			fl = append(fl, e)
		}
	}
	// Flink's own native-Kubernetes image option names the image it runs
	// (kubernetes.container.image.ref from 1.17, kubernetes.container.image before).
	if s.Flink != nil {
		for _, k := range []string{"kubernetes.container.image.ref", "kubernetes.container.image"} {
			e := s.Flink.Lookup(k)
			if e == nil {
				continue
			}
			if p, v, ok := evidence.ImageVersion(strings.Trim(e.Value, `"'`)); ok && p == evidence.Flink {
				fl = append(fl, model.Evidence{Version: v, Source: "image",
					What: k + " " + e.Value, File: s.Flink.Path, Line: e.KeySpan.Start.Line})
			}
		}
	}
	hd := a.hadoopDeclared(dep)
	for _, it := range items {
		if it.Path == manifestPath || it.Deployment {
			// The manifest's own images are spec.image above; an image
			// another FlinkDeployment names is that deployment's, whose
			// processes this set's configuration does not reach (a
			// sibling manifest's flink:1.17 said nothing of a v1_20
			// deployment beside it).
			continue
		}
		e := model.Evidence{Version: it.Version, Source: it.Kind, What: it.What, File: a.display(it.Path), Line: it.Line}
		switch it.Product {
		case evidence.Flink:
			fl = append(fl, e)
		case evidence.Hadoop:
			hd = append(hd, e)
		}
	}
	s.FlinkVersion = choose(fl, skipped)
	if !s.FlinkVersion.Known() {
		s.FlinkVersion = flinkFallback(s.Flink, s.FlinkVersion)
	}
	s.HadoopVersion = choose(hd, skipped)
	if !s.HadoopVersion.Known() {
		s.HadoopVersion.Source = "unknown"
		s.HadoopVersion.Why = "no Hadoop version is declared or pinned in the repository: declare hadoop_version in .ckptlint.hcl"
	}
}

// hadoopDeclared lists the Hadoop versions stated by a person.
func (a *Resolver) hadoopDeclared(dep *config.Deployment) []model.Evidence {
	var out []model.Evidence
	if a.Declared.Hadoop != "" {
		out = append(out, model.Evidence{Version: a.Declared.Hadoop, Source: "flag", What: "--hadoop-version"})
	}
	cl := a.Config.ClusterFor(dep)
	if cl != nil && cl.HadoopVersion != "" {
		out = append(out, model.Evidence{Version: cl.HadoopVersion, Source: "config",
			What: fmt.Sprintf("cluster %q in %s", cl.Name, a.cfgName())})
	}
	if a.Config != nil && a.Config.HadoopVersion != "" {
		out = append(out, model.Evidence{Version: a.Config.HadoopVersion, Source: "config", What: "hadoop_version in " + a.cfgName()})
	}
	return out
}

// choose takes the first readable version of ev (strongest first) and
// records the others of another major.minor as conflicts.
func choose(ev []model.Evidence, skipped []string) model.Resolved {
	r := model.Resolved{Source: "unknown", Skipped: skipped}
	var kept []model.Evidence
	for _, e := range ev {
		v, err := model.ParseVersion(e.Version)
		if err != nil {
			if r.Why == "" {
				r.Why = fmt.Sprintf("%s: %v", e.Place(), err)
			}
			continue
		}
		kept = append(kept, e)
		if r.Known() {
			if v.Major != r.Version.Major || v.Minor != r.Version.Minor {
				r.Conflicts = append(r.Conflicts, e)
			}
			continue
		}
		r.Version, r.Source, r.Where, r.Why = v, e.Source, e.Place(), e.Place()
		if !strings.HasPrefix(e.Version, "v") && !strings.Contains(e.Version, "_") {
			r.Raw = versionText(e.Version) // keeps "3.2.0" apart from "3.2"
		}
	}
	r.Evidence = kept
	return r
}

// versionText is the major.minor[.patch] a version string starts with.
func versionText(s string) string {
	v, err := model.ParseVersion(s)
	if err != nil {
		return s
	}
	if n := strings.Count(s, "."); n >= 2 {
		return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
	}
	return fmt.Sprintf("%d.%d", v.Major, v.Minor)
}

// flinkFallback is the version the files are read with when none is known:
// a lower bound from the files (config.yaml, keys only later releases
// have), else model.DefaultFlink; neither makes the version known.
func flinkFallback(f *parsed.File, r model.Resolved) model.Resolved {
	if v, why := model.LowerBound(f); !v.IsZero() {
		r.Version, r.Source, r.Why, r.Raw = v, "evidence", why, ""
		return r
	}
	r.Version, r.Source, r.Raw = model.DefaultFlink, "unknown", ""
	if r.Why == "" {
		r.Why = fmt.Sprintf("no Flink version is declared or pinned in the repository; the files are read as Flink %s reads them, and findings that depend on the version are at most info", model.DefaultFlink)
	}
	return r
}

// evidenceNear searches dir and its parents up to the repository root (the
// nearest directory holding .git; without one, dir alone).
func (a *Resolver) evidenceNear(dir string) ([]evidence.Item, []evidence.Note) {
	if dir == "" {
		return nil, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil
	}
	if a.ev == nil {
		a.ev = evidence.NewFinder(evidence.Limits{})
		// Only where the run may read at all (internal/inputfs).
		a.ev.Allow = a.Allow
		a.ev.FS = a.FS
		a.roots = map[string]string{}
	}
	root, ok := a.roots[abs]
	if !ok {
		root = a.FS.RepoRoot(abs)
		a.roots[abs] = root
	}
	return a.ev.Near(abs, root)
}

// cfgName names .ckptlint.hcl in messages.
func (a *Resolver) cfgName() string { return config.FileName }

// display renders path for messages.
func (a *Resolver) display(path string) string {
	if a.Display == nil {
		return path
	}
	return a.Display(path)
}

// NeedsVersion reports whether a fix operation is right only for some Flink
// releases: marked so by its rule, or a rename of a Flink key (a key's new
// name is read only from the release that introduced it).
func NeedsVersion(op finding.Op) bool {
	return op.NeedsVersion || op.Op == "rename" && op.Target == "flink"
}

// NeedsHadoopVersion reports whether a fix operation renames a Hadoop key:
// the new names (fs.defaultFS, dfs.blocksize, ...) and the deprecation
// table that maps the old ones came with Hadoop 0.23/2.0 (hadoop-common
// DeprecatedProperties, first published for 0.23); Hadoop 1.x reads only
// the old name, so the rename is right only from 0.23 on.
func NeedsHadoopVersion(op finding.Op) bool {
	return op.Op == "rename" && op.Target != "flink"
}

// HadoopRenamesRead reports whether the set's Hadoop version is known to
// read the new Hadoop key names: 0.23 or 2.0 and later. Hadoop 1.x came
// from the older 0.20.205 line and does not, although 1 > 0.23.
func HadoopRenamesRead(s *model.Set) bool {
	v := s.HadoopVersion.Version
	return s.HadoopVersion.Known() && (v.Major >= 2 || v.Major == 0 && v.Minor >= 23)
}
