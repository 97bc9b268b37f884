package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ckptlint/ckptlint/lint/cfgfile"
	"github.com/ckptlint/ckptlint/lint/config"
	"github.com/ckptlint/ckptlint/lint/evidence"
	"github.com/ckptlint/ckptlint/lint/format/flinkyaml"
	"github.com/ckptlint/ckptlint/lint/inputfs"
	"github.com/ckptlint/ckptlint/lint/model"
	"github.com/ckptlint/ckptlint/lint/span"
)

var posOne = span.Pos{Line: 1, Col: 1}

// Versions are the versions given on the command line ("" when not given).
type Versions struct{ Flink, Hadoop string }

// assembler groups discovered files into config sets (docs/architecture.md,
// "Files beside the Flink configuration"; docs/ci.md): an explicit
// deployment block first, then the Hadoop directory named by
// env.hadoop.conf.dir / fs.hdfs.hadoopconf when it resolves inside the
// repository, then core-site.xml/hdfs-site.xml beside the Flink file. Hadoop files no Flink file claims form sets of their own.
type assembler struct {
	d     *discoverer
	cfg   *config.Config
	vers  Versions
	ev    *evidence.Finder  // version evidence, searched once per directory
	roots map[string]string // directory → repository root
	sets  []*model.Set
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
	for _, p := range a.d.sortedPaths() {
		f := a.d.files[p]
		if claimedFlink[p] {
			continue
		}
		switch f.kind {
		case kindFlinkConf, kindConfigYAML:
			if dir := filepath.Dir(p); !dirs[dir] {
				dirs[dir] = true
				dirOrder = append(dirOrder, dir)
			}
		case kindManifest:
			a.manifest(f, nil, "", "")
		}
	}
	for _, dir := range dirOrder {
		legacy, std := a.d.inDir(dir, kindFlinkConf), a.d.inDir(dir, kindConfigYAML)
		if claimedFlink[pathOf(legacy)] || claimedFlink[pathOf(std)] {
			continue
		}
		a.flinkSet(legacy, std, nil, "", "")
	}
	// Unclaimed Hadoop files: one set per directory.
	seen := map[string]bool{}
	for _, p := range a.d.sortedPaths() {
		f := a.d.files[p]
		if (f.kind != kindCoreSite && f.kind != kindHDFSSite) || f.claim || seen[filepath.Dir(p)] {
			continue
		}
		dir := filepath.Dir(p)
		seen[dir] = true
		s := &model.Set{Name: a.d.displayPath(dir) + " (Hadoop)"}
		if core := a.d.inDir(dir, kindCoreSite); core != nil && !core.claim {
			s.Client = append(s.Client, model.Resource{File: core.file, Via: "standalone", Dir: a.d.displayPath(dir)})
		}
		if hdfs := a.d.inDir(dir, kindHDFSSite); hdfs != nil && !hdfs.claim {
			s.Client = append(s.Client, model.Resource{File: hdfs.file, Via: "standalone", Dir: a.d.displayPath(dir)})
			s.ClusterHDFS = hdfs.file
		}
		a.versions(s, nil, nil, dir)
		s.Cluster = a.defaultCluster()
		a.sets = append(a.sets, s)
	}
	a.cdataReading()
	return nil
}

func pathOf(f *found) string {
	if f == nil {
		return ""
	}
	return f.path
}

// deployment builds the set an explicit deployment block declares.
func (a *assembler) deployment(dep *config.Deployment, claimed map[string]bool) error {
	p := a.cfg.Resolve(dep.FlinkConf)
	st, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("%s: deployment %q: flink_conf %q: %w", a.cfg.Path, dep.Name, dep.FlinkConf, err)
	}
	var legacy, std, man *found
	if st.IsDir() {
		for _, name := range []string{"flink-conf.yaml", "config.yaml"} {
			if a.d.isFile(filepath.Join(p, name)) {
				a.d.declared[filepath.Join(p, name)] = true
				if err := a.d.add(filepath.Join(p, name), true); err != nil {
					return err
				}
			}
		}
		legacy, std = a.d.inDir(filepath.Clean(p), kindFlinkConf), a.d.inDir(filepath.Clean(p), kindConfigYAML)
		if legacy == nil && std == nil {
			return fmt.Errorf("%s: deployment %q: no flink-conf.yaml or config.yaml in %s", a.cfg.Path, dep.Name, dep.FlinkConf)
		}
	} else {
		p = filepath.Clean(p)
		a.d.declared[p] = true
		if err := a.d.add(p, true); err != nil {
			return err
		}
		f := a.d.files[p]
		switch f.kind {
		case kindFlinkConf:
			legacy = f
		case kindConfigYAML:
			std = f
		case kindManifest:
			man = f
		}
	}
	for _, f := range []*found{legacy, std, man} {
		if f != nil {
			claimed[f.path] = true
		}
	}
	hconf := ""
	if dep.HadoopConf != "" {
		hconf = filepath.Clean(a.cfg.Resolve(dep.HadoopConf))
		if st, err := os.Stat(hconf); err != nil || !st.IsDir() {
			return fmt.Errorf("%s: deployment %q: hadoop_conf %q is not a directory", a.cfg.Path, dep.Name, dep.HadoopConf)
		}
		for _, n := range []string{"core-site.xml", "hdfs-site.xml"} {
			if a.d.isFile(filepath.Join(hconf, n)) {
				if err := a.d.add(filepath.Join(hconf, n), true); err != nil {
					return err
				}
			}
		}
	}
	csite := ""
	if dep.ClusterHDFSSite != "" {
		csite = filepath.Clean(a.cfg.Resolve(dep.ClusterHDFSSite))
		if err := a.d.add(csite, true); err != nil {
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
func (a *assembler) manifest(f *found, dep *config.Deployment, hconf, csite string) {
	if f.perr != nil || f.tmpl != nil {
		s := &model.Set{Name: f.disp, Flink: &cfgfile.File{Path: f.disp, Format: cfgfile.FlinkDeployment, Err: f.perr, Template: f.tmpl}}
		a.versions(s, dep, nil, filepath.Dir(f.path))
		a.sets = append(a.sets, s)
		return
	}
	for i := range f.deps {
		fd := &f.deps[i]
		name := f.disp
		if len(f.deps) > 1 || fd.Name != "" {
			name = fmt.Sprintf("%s#%s", f.disp, fd.Name)
		}
		s := &model.Set{Name: name, Flink: fd.Config, Manifest: manifestModel(fd)}
		a.attachHadoop(s, filepath.Dir(f.path), dep, hconf, csite)
		a.versions(s, dep, fd, filepath.Dir(f.path))
		a.cluster(s, dep)
		a.sets = append(a.sets, s)
	}
}

func manifestModel(fd *flinkyaml.Deployment) *model.Manifest {
	m := &model.Manifest{Name: fd.Name, Namespace: fd.Namespace, FlinkVersion: fd.FlinkVersion}
	if fd.Mode != nil {
		m.Mode = fd.Mode.Value
	}
	conv := func(f *flinkyaml.Field) *model.Field {
		if f == nil {
			return nil
		}
		return &model.Field{Value: f.Value, Loc: model.LocOf(fd.Config.Path, f.Span)}
	}
	m.JobParallelism = conv(fd.JobParallelism)
	m.TaskManagerReplicas = conv(fd.TaskManagerReplicas)
	m.UpgradeMode = conv(fd.UpgradeMode)
	m.Mounts = podMounts(fd)
	return m
}

// podMounts resolves the volume mounts of the Flink main container of the
// JobManager and TaskManager pods. The operator layers spec.podTemplate
// under the component's podTemplate (flink-kubernetes-operator docs, "Pod
// Template"); a mount's volume is looked up by name in the component's
// template first, then in spec.podTemplate, and a mount path declared in
// both is the component's.
func podMounts(fd *flinkyaml.Deployment) map[string][]model.Mount {
	out := map[string][]model.Mount{}
	for _, comp := range []struct{ name, where string }{
		{"jobmanager", "spec.jobManager.podTemplate"}, {"taskmanager", "spec.taskManager.podTemplate"},
	} {
		var layers []*flinkyaml.PodTemplate
		for i := range fd.PodTemplates {
			if t := &fd.PodTemplates[i]; t.Where == "spec.podTemplate" || t.Where == comp.where {
				layers = append(layers, t)
			}
		}
		volume := func(name string) (*flinkyaml.Volume, bool) {
			for i := len(layers) - 1; i >= 0; i-- {
				for j := range layers[i].Volumes {
					if layers[i].Volumes[j].Name == name {
						return &layers[i].Volumes[j], true
					}
				}
			}
			return nil, false
		}
		var ms []model.Mount
		for i := len(layers) - 1; i >= 0; i-- {
			for _, mt := range layers[i].Mounts {
				if slices.ContainsFunc(ms, func(x model.Mount) bool { return x.MountPath == mt.MountPath }) {
					continue
				}
				m := model.Mount{MountPath: mt.MountPath, SubPath: mt.SubPath, ReadOnly: mt.ReadOnly, Volume: mt.Volume,
					Template: layers[i].Where, Loc: model.LocOf(fd.Config.Path, mt.Span), Class: "missing"}
				if v, ok := volume(mt.Volume); ok {
					m.VolumeType, m.Detail, m.Class = v.Type, v.Detail, volumeClass(v.Type)
					if v.Type == "persistentVolumeClaim" {
						for _, c := range fd.Claims {
							if "claim "+c.Name == v.Detail {
								m.AccessModes = c.AccessModes
							}
						}
					}
				}
				ms = append(ms, m)
			}
		}
		out[comp.name] = ms
	}
	return out
}

// volumeClass tells what a Kubernetes volume source means for files
// written under its mount (https://kubernetes.io/docs/concepts/storage/volumes/).
func volumeClass(typ string) string {
	switch typ {
	case "persistentVolumeClaim", "nfs", "csi", "cephfs", "glusterfs", "azureFile", "quobyte", "portworxVolume", "storageos", "flocker", "scaleIO":
		return "shared"
	case "emptyDir", "hostPath", "ephemeral":
		return "local"
	case "awsElasticBlockStore", "gcePersistentDisk", "azureDisk", "iscsi", "fc", "rbd", "cinder", "vsphereVolume", "photonPersistentDisk", "flexVolume":
		return "node"
	case "configMap", "secret", "projected", "downwardAPI", "gitRepo":
		return "config"
	}
	return "unknown"
}

// flinkSet builds the set of one Flink configuration directory.
func (a *assembler) flinkSet(legacy, std *found, dep *config.Deployment, hconf, csite string) {
	s := &model.Set{}
	var dir string
	if legacy != nil {
		dir = filepath.Dir(legacy.path)
	} else {
		dir = filepath.Dir(std.path)
	}
	s.Name = a.d.displayPath(dir)
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
			s.Flink, s.FlinkIgnored = std.file, legacy.file
		case both:
			s.Flink, s.FlinkIgnored = legacy.file, std.file
		case legacy != nil:
			s.Flink = legacy.file
		default:
			s.Flink = std.file
		}
	}
	pick(model.Version{})
	a.versions(s, dep, nil, dir)
	if both {
		pick(s.FlinkVersion.Version)
		a.versions(s, dep, nil, dir)
	}
	a.attachHadoop(s, dir, dep, hconf, csite)
	a.cluster(s, dep)
	a.sets = append(a.sets, s)
}

// attachHadoop finds the Hadoop client files Flink reads with s.Flink.
func (a *assembler) attachHadoop(s *model.Set, dir string, dep *config.Deployment, hconf, csite string) {
	add := func(d, via string) {
		for _, k := range []kind{kindCoreSite, kindHDFSSite} {
			if f := a.d.inDir(d, k); f != nil {
				f.claim = true
				s.Client = append(s.Client, model.Resource{File: f.file, Via: via, Dir: a.d.displayPath(d)})
			}
		}
	}
	if csite != "" {
		if f := a.d.files[csite]; f != nil && f.file != nil {
			f.claim = true
			s.ClusterHDFS = f.file
		}
	}
	if hconf != "" {
		add(hconf, "deployment")
		return
	}
	// Flink's order (Flink 1.20 HadoopUtils.getHadoopConfiguration):
	// fs.hdfs.hadoopconf (1.x) is loaded before
	// HADOOP_CONF_DIR, which env.hadoop.conf.dir sets; later wins.
	resolvedAny := false
	if s.Flink != nil && s.Flink.Err == nil {
		for _, key := range []string{"fs.hdfs.hadoopconf", "env.hadoop.conf.dir"} {
			e := s.Flink.Lookup(key)
			if e == nil || strings.TrimSpace(e.Value) == "" {
				continue
			}
			ref := model.ConfRef{Key: key, Value: e.Value, Loc: model.LocOf(e.File, e.ValueSpan)}
			rd, reason := a.resolveConfDir(strings.TrimSpace(e.Value), dir)
			if rd != "" {
				ref.Resolved = a.d.displayPath(rd)
				if key == "fs.hdfs.hadoopconf" && !s.FlinkVersion.Version.Less(model.V(2, 0)) {
					ref.Reason = "Flink 2.x no longer reads fs.hdfs.hadoopconf"
				} else {
					a.ensureHadoopFiles(rd)
					add(rd, key)
					resolvedAny = true
				}
			} else {
				ref.Reason = reason
			}
			s.HadoopConfRefs = append(s.HadoopConfRefs, ref)
		}
	}
	if !resolvedAny {
		add(dir, "same-dir")
	}
}

// ensureHadoopFiles parses the Hadoop files of a conf dir outside the
// walked paths.
func (a *assembler) ensureHadoopFiles(dir string) {
	for _, n := range []string{"core-site.xml", "hdfs-site.xml"} {
		p := filepath.Join(dir, n)
		if _, ok := a.d.files[p]; ok {
			continue
		}
		if a.d.isFile(p) {
			_ = a.d.add(p, true)
		}
	}
}

// resolveConfDir maps a directory named in a Flink option to a directory of
// the repository: path_mappings for absolute paths, else relative to the
// Flink file's directory, then to the .ckptlint.hcl directory.
func (a *assembler) resolveConfDir(v, flinkDir string) (string, string) {
	isDir := func(p string) bool { st, err := os.Stat(p); return err == nil && st.IsDir() }
	if filepath.IsAbs(v) || strings.HasPrefix(v, "/") {
		if a.cfg != nil {
			for from, to := range a.cfg.PathMappings {
				if v == from || strings.HasPrefix(v, strings.TrimSuffix(from, "/")+"/") {
					p := a.cfg.Resolve(to + strings.TrimPrefix(v, strings.TrimSuffix(from, "/")))
					if isDir(p) {
						return filepath.Clean(p), ""
					}
					return "", fmt.Sprintf("path_mappings maps it to %s, which is not a directory", to)
				}
			}
		}
		return "", "an absolute path outside the repository; map it with path_mappings in .ckptlint.hcl to lint the Hadoop files Flink reads there"
	}
	outside := false
	inside := func(p string) bool {
		// A relative path in a file from a pull request may climb out of
		// the repository: it is not followed (nothing there is read).
		_, err := a.d.bound.Check(p)
		outside = outside || inputfs.IsOutside(err)
		return err == nil
	}
	if p := filepath.Join(flinkDir, v); inside(p) && isDir(p) {
		return filepath.Clean(p), ""
	}
	if a.cfg != nil && a.cfg.Dir != "" {
		if p := a.cfg.Resolve(v); inside(p) && isDir(p) {
			return filepath.Clean(p), ""
		}
	}
	if outside {
		return "", "it leads outside the repository, where ckptlint reads nothing; name the directory on the command line or in .ckptlint.hcl to lint it"
	}
	return "", "no such directory in the repository"
}

// defaultCluster is the only cluster block, when there is exactly one.
func (a *assembler) defaultCluster() *config.Cluster {
	if a.cfg != nil && len(a.cfg.Clusters) == 1 {
		return &a.cfg.Clusters[0]
	}
	return nil
}

func (a *assembler) cluster(s *model.Set, dep *config.Deployment) {
	s.Deployment = dep
	if dep != nil && dep.Cluster != "" {
		s.Cluster = a.cfg.ClusterByName(dep.Cluster)
		return
	}
	s.Cluster = a.defaultCluster()
}

func spanAt(p span.Pos) span.Span { return span.Span{Start: p, End: p} }
