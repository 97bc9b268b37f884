// Package assemble is the second step of a lint run: it groups the files
// discovery found (internal/discover) into config sets, a Flink configuration
// with the Hadoop files Flink's HDFS client reads with it, resolving each
// set's versions (internal/versions) and the cluster facts .ckptlint.hcl
// declares for it. A set comes as a Plan: its Flink file parsed (assembly
// reads it: fs.hdfs.hadoopconf, the version evidence in its keys), its
// Hadoop files not yet (Plan.Parse parses them, on an evaluation worker).
package assemble

import (
	"fmt"
	"path/filepath"

	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/deploy"
	"github.com/ckptlint/ckptlint/internal/discover"
	"github.com/ckptlint/ckptlint/internal/format"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/versions"
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
	// yield receives each set as it is complete (Each); plan is the set
	// being built.
	yield    func(*Plan) error
	plan     *Plan
	err      error
	clusters []*deploy.Cluster
	// configMaps are the repository's ConfigMaps, which Flink's native
	// Kubernetes mode mounts by name (kubernetes.hadoop.conf.config-map.name).
	configMaps []*deploy.ConfigMap
}

// Deployment is what the repository's deployment files describe
// (internal/deploy): the clusters Resolve joined, and the ConfigMaps.
type Deployment struct {
	Clusters   []*deploy.Cluster
	ConfigMaps []*deploy.ConfigMap
}

// Each groups the files of t into config sets and hands each to yield as
// soon as it is complete, in a stable order, so that a run evaluates a set
// while the next ones are assembled. cfg is .ckptlint.hcl (nil: none): its
// deployment blocks, path_mappings and clusters. Files a deployment block
// or a Flink option names are read into t as they are needed. An error
// from yield stops assembly and is returned.
//
// dep is what the repository's deployment files describe (nil: none):
// each cluster (internal/deploy Resolve) makes a set after the deployment blocks,
// before the Flink files a walk finds, and claims its files.
func Each(t *discover.Tree, cfg *config.Config, vers *versions.Resolver, dep *Deployment, yield func(*Plan) error) error {
	a := &assembler{d: t, cfg: cfg, vers: vers, yield: yield}
	if dep != nil {
		a.clusters, a.configMaps = dep.Clusters, dep.ConfigMaps
	}
	if err := a.run(); err != nil {
		return err
	}
	return a.err
}

// start begins the plan of a new set named name.
func (a *assembler) start(name string) *model.Set {
	s := &model.Set{Name: name}
	a.plan = &Plan{Set: s}
	return s
}

// flink parses a Flink file for the set being built.
func (a *assembler) flink(f *discover.Found) *parsed.File {
	if f == nil {
		return nil
	}
	a.plan.Flink = append(a.plan.Flink, f)
	return a.d.Parse(f, false)
}

// hadoop adds a Hadoop client file to the set being built.
func (a *assembler) hadoop(f *discover.Found, via, dir string) {
	a.plan.Hadoop = append(a.plan.Hadoop, Ref{File: f, Via: via, Dir: dir})
}

// emit hands the complete set to yield.
func (a *assembler) emit() {
	p := a.plan
	a.plan = nil
	p.IgnoreCDATA = cdataIgnoredFor(p.Set.HadoopVersion)
	p.Root = p.root()
	if a.err == nil {
		a.err = a.yield(p)
	}
}

// deployedAll makes the sets of the clusters the deployment describes.
func (a *assembler) deployedAll(claimed map[string]bool) {
	for _, c := range a.clusters {
		a.deployed(c, claimed)
	}
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
	a.deployedAll(claimedFlink)
	// Flink files by directory: flink-conf.yaml and config.yaml of one
	// directory are one set (Flink reads one of them: Flink 1.20
	// GlobalConfiguration.java L146-171).
	dirs := map[string]bool{}
	var dirOrder []string
	for _, p := range a.d.Paths() {
		f := a.d.Get(p)
		if claimedFlink[p] || f.Embedded() { // a text's set is its deployment's
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
		if (f.Format != parsed.HadoopCoreSite && f.Format != parsed.HadoopHDFSSite) || f.Claimed || f.Embedded() || seen[filepath.Dir(p)] {
			continue
		}
		dir := filepath.Dir(p)
		seen[dir] = true
		s := a.start(a.d.Display(dir) + " (Hadoop)")
		if core := a.d.InDir(dir, parsed.HadoopCoreSite); core != nil && !core.Claimed {
			a.hadoop(core, "standalone", a.d.Display(dir))
		}
		if hdfs := a.d.InDir(dir, parsed.HadoopHDFSSite); hdfs != nil && !hdfs.Claimed {
			a.hadoop(hdfs, "standalone", a.d.Display(dir))
			a.plan.ClusterHDFS = hdfs
		}
		a.vers.Resolve(s, nil, nil, dir)
		s.Cluster = a.cfg.ClusterFor(nil)
		a.emit()
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
	legacy, std, man, err := a.deploymentFlink(dep)
	if err != nil {
		return err
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
		if err := a.addNamed(hconf, format.FileNames(format.Hadoop), false); err != nil {
			return err
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

// deploymentFlink reads the Flink files a deployment block's flink_conf
// names: the flink-conf.yaml and config.yaml of a directory, or one file
// (a FlinkDeployment manifest among them), declared Flink's whatever keys
// they hold.
func (a *assembler) deploymentFlink(dep *config.Deployment) (legacy, std, man *discover.Found, err error) {
	p := a.cfg.Resolve(dep.FlinkConf)
	st, err := a.d.Stat(p)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: deployment %q: flink_conf %q: %w", a.cfg.Path, dep.Name, dep.FlinkConf, err)
	}
	if st.IsDir() {
		if err := a.addNamed(p, format.FileNames(format.Flink), true); err != nil {
			return nil, nil, nil, err
		}
		legacy, std = a.d.InDir(filepath.Clean(p), parsed.FlinkConfLegacy), a.d.InDir(filepath.Clean(p), parsed.FlinkConfigYAML)
		if legacy == nil && std == nil {
			return nil, nil, nil, fmt.Errorf("%s: deployment %q: no flink-conf.yaml or config.yaml in %s", a.cfg.Path, dep.Name, dep.FlinkConf)
		}
		return legacy, std, nil, nil
	}
	p = filepath.Clean(p)
	a.d.Declare(p)
	if err := a.d.Add(p, true); err != nil {
		return nil, nil, nil, err
	}
	f := a.d.Get(p)
	if f == nil {
		// Read as a deployment file (a compose file, a manifest of
		// ConfigMaps): the configuration inside it is read from the
		// deployment model, never as a flink_conf.
		return nil, nil, nil, fmt.Errorf("%s: deployment %q: flink_conf %q is no Flink configuration file (a deployment file: ckptlint reads the configuration in it from the deployment; docs/deployment.md)", a.cfg.Path, dep.Name, dep.FlinkConf)
	}
	switch f.Format {
	case parsed.FlinkConfLegacy:
		legacy = f
	case parsed.FlinkConfigYAML:
		std = f
	case parsed.FlinkDeployment:
		man = f
	}
	return legacy, std, man, nil
}

// addNamed reads the files of dir named names that exist, declaring them
// Flink's when declare is set.
func (a *assembler) addNamed(dir string, names []string, declare bool) error {
	for _, name := range names {
		p := filepath.Join(dir, name)
		if !a.d.IsFile(p) {
			continue
		}
		if declare {
			a.d.Declare(p)
		}
		if err := a.d.Add(p, true); err != nil {
			return err
		}
	}
	return nil
}

// manifest makes one set per FlinkDeployment document of a manifest file.
func (a *assembler) manifest(f *discover.Found, dep *config.Deployment, hconf, csite string) {
	if f.Err != nil || f.Template != nil {
		s := a.start(f.Disp)
		s.Flink = &parsed.File{Path: f.Disp, Format: parsed.FlinkDeployment, Src: f.Src, Err: f.Err, Template: f.Template}
		a.plan.Flink = []*discover.Found{f}
		a.vers.Resolve(s, dep, nil, filepath.Dir(f.Path))
		a.emit()
		return
	}
	for i := range f.Deps {
		fd := &f.Deps[i]
		name := f.Disp
		if len(f.Deps) > 1 || fd.Name != "" {
			name = fmt.Sprintf("%s#%s", f.Disp, fd.Name)
		}
		s := a.start(name)
		s.Flink, s.Manifest = fd.Config, manifestModel(fd)
		a.plan.Flink = []*discover.Found{f}
		a.attachHadoop(s, filepath.Dir(f.Path), dep, hconf, csite)
		a.vers.Resolve(s, dep, fd, filepath.Dir(f.Path))
		a.cluster(s, dep)
		a.emit()
	}
}

// flinkSet builds the set of one Flink configuration directory.
func (a *assembler) flinkSet(legacy, std *discover.Found, dep *config.Deployment, hconf, csite string) {
	var dir string
	if legacy != nil {
		dir = filepath.Dir(legacy.Path)
	}
	if std != nil {
		dir = filepath.Dir(std.Path)
	}
	s := a.start(a.d.Display(dir))
	legacyFile, stdFile := a.flink(legacy), a.flink(std)
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
			s.Flink, s.FlinkIgnored = stdFile, legacyFile
		case both:
			s.Flink, s.FlinkIgnored = legacyFile, stdFile
		case legacy != nil:
			s.Flink = legacyFile
		default:
			s.Flink = stdFile
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
	a.emit()
}

// cluster sets the deployment block of s and the cluster it runs on.
func (a *assembler) cluster(s *model.Set, dep *config.Deployment) {
	s.Deployment = dep
	s.Cluster = a.cfg.ClusterFor(dep)
}
