// Package assemble is the second step of a lint run: it groups the files
// discovery found (lint/discover) into config sets, a Flink configuration
// with the Hadoop files Flink's HDFS client reads with it, resolving each
// set's versions (lint/versions) and the cluster facts .ckptlint.hcl
// declares for it.
package assemble

import (
	"fmt"
	"path/filepath"

	"github.com/ckptlint/ckptlint/lint/config"
	"github.com/ckptlint/ckptlint/lint/discover"
	"github.com/ckptlint/ckptlint/lint/format"
	"github.com/ckptlint/ckptlint/lint/model"
	"github.com/ckptlint/ckptlint/lint/parsed"
	"github.com/ckptlint/ckptlint/lint/versions"
)

// assembler groups discovered files into config sets (docs/architecture.md,
// "Files beside the Flink configuration"; docs/ci.md): an explicit
// deployment block first, then the Hadoop directory named by
// env.hadoop.conf.dir / fs.hdfs.hadoopconf when it resolves inside the
// repository, then core-site.xml/hdfs-site.xml beside the Flink file. Hadoop files no Flink file claims form sets of their own.
type assembler struct {
	d    *discover.Tree
	cfg  *config.Config
	vers *versions.Resolver
	// yield receives each set as it is complete (Each); held are the
	// files the set being built holds (discover.Tree Hold).
	yield func(s *model.Set, held []*parsed.File) error
	held  []*parsed.File
	err   error
	// again are the Hadoop files parsed again for a release that drops
	// CDATA (cdataReading).
	again map[*parsed.File]*parsed.File
}

// Sets groups the files of t into config sets, in a stable order. cfg is
// .ckptlint.hcl (nil: none): its deployment blocks, path_mappings and
// clusters. Files a deployment block or a Flink option names are read
// into t as they are needed.
func Sets(t *discover.Tree, cfg *config.Config, vers *versions.Resolver) ([]*model.Set, error) {
	var sets []*model.Set
	err := Each(t, cfg, vers, func(s *model.Set, _ []*parsed.File) error {
		sets = append(sets, s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sets, nil
}

// Each is Sets handing each set to yield as soon as it is complete, in the
// same order, so that a streaming run evaluates a set while the next ones
// are assembled. held are the files t holds for the set (discover.Tree
// Hold): the caller releases each of them once it is done with the set.
// An error from yield stops assembly and is returned.
func Each(t *discover.Tree, cfg *config.Config, vers *versions.Resolver, yield func(s *model.Set, held []*parsed.File) error) error {
	a := &assembler{d: t, cfg: cfg, vers: vers, yield: yield, again: map[*parsed.File]*parsed.File{}}
	if err := a.run(); err != nil {
		return err
	}
	return a.err
}

// use holds f for the set being built (discover.Tree Hold) and returns it.
func (a *assembler) use(f *parsed.File) *parsed.File {
	if f != nil {
		a.d.Hold(f)
		a.held = append(a.held, f)
	}
	return f
}

// emit hands a complete set to yield with the files held for it.
func (a *assembler) emit(s *model.Set) {
	a.cdataReading(s)
	a.substitution(s)
	held := a.held
	a.held = nil
	if a.err != nil {
		for _, f := range held {
			a.d.Release(f)
		}
		return
	}
	a.err = a.yield(s, held)
}

func (a *assembler) run() error {
	claimedFlink := map[string]bool{}
	if a.cfg != nil {
		for i := range a.cfg.Deployments {
			dep := &a.cfg.Deployments[i]
			if err := a.deployment(dep, claimedFlink); err != nil {
				return err
			}
		}
	}
	// Flink files by directory: flink-conf.yaml and config.yaml of one
	// directory are one set (Flink reads one of them: Flink 1.20
	// GlobalConfiguration.java L146-171).
	dirs := map[string]bool{}
	var dirOrder []string
	for _, p := range a.d.Paths() {
		f := a.d.Get(p)
		if claimedFlink[p] {
			continue
		}
		switch f.Format {
		case parsed.FlinkConfLegacy, parsed.FlinkConfigYAML:
			if dir := filepath.Dir(p); !dirs[dir] {
				dirs[dir] = true
				dirOrder = append(dirOrder, dir)
			}
		case parsed.FlinkDeployment:
			a.manifest(f, nil, "", "")
		}
	}
	for _, dir := range dirOrder {
		legacy, std := a.d.InDir(dir, parsed.FlinkConfLegacy), a.d.InDir(dir, parsed.FlinkConfigYAML)
		if claimedFlink[pathOf(legacy)] || claimedFlink[pathOf(std)] {
			continue
		}
		a.flinkSet(legacy, std, nil, "", "")
	}
	// Unclaimed Hadoop files: one set per directory.
	seen := map[string]bool{}
	for _, p := range a.d.Paths() {
		f := a.d.Get(p)
		if (f.Format != parsed.HadoopCoreSite && f.Format != parsed.HadoopHDFSSite) || f.Claimed || seen[filepath.Dir(p)] {
			continue
		}
		dir := filepath.Dir(p)
		seen[dir] = true
		s := &model.Set{Name: a.d.Display(dir) + " (Hadoop)"}
		if core := a.d.InDir(dir, parsed.HadoopCoreSite); core != nil && !core.Claimed {
			s.Client = append(s.Client, model.Resource{File: a.use(core.File), Via: "standalone", Dir: a.d.Display(dir)})
		}
		if hdfs := a.d.InDir(dir, parsed.HadoopHDFSSite); hdfs != nil && !hdfs.Claimed {
			s.Client = append(s.Client, model.Resource{File: a.use(hdfs.File), Via: "standalone", Dir: a.d.Display(dir)})
			s.ClusterHDFS = hdfs.File
		}
		a.vers.Resolve(s, nil, nil, dir)
		s.Cluster = a.cfg.ClusterFor(nil)
		a.emit(s)
	}
	return nil
}

func pathOf(f *discover.Found) string {
	if f == nil {
		return ""
	}
	return f.Path
}

// deployment builds the set an explicit deployment block declares.
func (a *assembler) deployment(dep *config.Deployment, claimed map[string]bool) error {
	p := a.cfg.Resolve(dep.FlinkConf)
	st, err := a.d.Stat(p)
	if err != nil {
		return fmt.Errorf("%s: deployment %q: flink_conf %q: %w", a.cfg.Path, dep.Name, dep.FlinkConf, err)
	}
	var legacy, std, man *discover.Found
	if st.IsDir() {
		for _, name := range format.FileNames(format.Flink) {
			if a.d.IsFile(filepath.Join(p, name)) {
				a.d.Declare(filepath.Join(p, name))
				if err := a.d.Add(filepath.Join(p, name), true); err != nil {
					return err
				}
			}
		}
		legacy, std = a.d.InDir(filepath.Clean(p), parsed.FlinkConfLegacy), a.d.InDir(filepath.Clean(p), parsed.FlinkConfigYAML)
		if legacy == nil && std == nil {
			return fmt.Errorf("%s: deployment %q: no flink-conf.yaml or config.yaml in %s", a.cfg.Path, dep.Name, dep.FlinkConf)
		}
	} else {
		p = filepath.Clean(p)
		a.d.Declare(p)
		if err := a.d.Add(p, true); err != nil {
			return err
		}
		f := a.d.Get(p)
		switch f.Format {
		case parsed.FlinkConfLegacy:
			legacy = f
		case parsed.FlinkConfigYAML:
			std = f
		case parsed.FlinkDeployment:
			man = f
		}
	}
	for _, f := range []*discover.Found{legacy, std, man} {
		if f != nil {
			claimed[f.Path] = true
		}
	}
	hconf := ""
	if dep.HadoopConf != "" {
		hconf = filepath.Clean(a.cfg.Resolve(dep.HadoopConf))
		if st, err := a.d.Stat(hconf); err != nil || !st.IsDir() {
			return fmt.Errorf("%s: deployment %q: hadoop_conf %q is not a directory", a.cfg.Path, dep.Name, dep.HadoopConf)
		}
		for _, n := range format.FileNames(format.Hadoop) {
			if a.d.IsFile(filepath.Join(hconf, n)) {
				if err := a.d.Add(filepath.Join(hconf, n), true); err != nil {
					return err
				}
			}
		}
	}
	csite := ""
	if dep.ClusterHDFSSite != "" {
		csite = filepath.Clean(a.cfg.Resolve(dep.ClusterHDFSSite))
		if err := a.d.Add(csite, true); err != nil {
			return err
		}
	}
	if man != nil {
		a.manifest(man, dep, hconf, csite)
		return nil
	}
	a.flinkSet(legacy, std, dep, hconf, csite)
	return nil
}

// manifest makes one set per FlinkDeployment document of a manifest file.
func (a *assembler) manifest(f *discover.Found, dep *config.Deployment, hconf, csite string) {
	if f.Err != nil || f.Template != nil {
		s := &model.Set{Name: f.Disp, Flink: &parsed.File{Path: f.Disp, Format: parsed.FlinkDeployment, Src: a.d.Kept(f.Disp), Err: f.Err, Template: f.Template}}
		a.vers.Resolve(s, dep, nil, filepath.Dir(f.Path))
		a.emit(s)
		return
	}
	for i := range f.Deps {
		fd := &f.Deps[i]
		name := f.Disp
		if len(f.Deps) > 1 || fd.Name != "" {
			name = fmt.Sprintf("%s#%s", f.Disp, fd.Name)
		}
		s := &model.Set{Name: name, Flink: a.use(fd.Config), Manifest: manifestModel(fd)}
		a.attachHadoop(s, filepath.Dir(f.Path), dep, hconf, csite)
		a.vers.Resolve(s, dep, fd, filepath.Dir(f.Path))
		a.cluster(s, dep)
		a.emit(s)
	}
}

// flinkSet builds the set of one Flink configuration directory.
func (a *assembler) flinkSet(legacy, std *discover.Found, dep *config.Deployment, hconf, csite string) {
	s := &model.Set{}
	var dir string
	if legacy != nil {
		dir = filepath.Dir(legacy.Path)
		a.use(legacy.File)
	}
	if std != nil {
		dir = filepath.Dir(std.Path)
		a.use(std.File)
	}
	s.Name = a.d.Display(dir)
	if dep != nil {
		s.Name = dep.Name
	}
	// Pick the file this Flink version reads (Flink 1.20 GlobalConfiguration.java
	// L146-171): with both files,
	// 1.19/1.20 read flink-conf.yaml and 2.x reads config.yaml.
	both := legacy != nil && std != nil
	pick := func(v model.Version) {
		s.Flink, s.FlinkIgnored = nil, nil
		switch {
		case both && v.AtLeast(model.V(2, 0)):
			s.Flink, s.FlinkIgnored = std.File, legacy.File
		case both:
			s.Flink, s.FlinkIgnored = legacy.File, std.File
		case legacy != nil:
			s.Flink = legacy.File
		default:
			s.Flink = std.File
		}
	}
	pick(model.Version{})
	a.vers.Resolve(s, dep, nil, dir)
	if both {
		pick(s.FlinkVersion.Version)
		a.vers.Resolve(s, dep, nil, dir)
	}
	a.attachHadoop(s, dir, dep, hconf, csite)
	a.cluster(s, dep)
	a.emit(s)
}

// cluster sets the deployment block of s and the cluster it runs on.
func (a *assembler) cluster(s *model.Set, dep *config.Deployment) {
	s.Deployment = dep
	s.Cluster = a.cfg.ClusterFor(dep)
}
