package assemble

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/format"
	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// attachHadoop finds the Hadoop client files Flink reads with s.Flink.
func (a *assembler) attachHadoop(s *model.Set, dir string, dep *config.Deployment, hconf, csite string) {
	add := func(d, via string) {
		for _, k := range []parsed.Format{parsed.HadoopCoreSite, parsed.HadoopHDFSSite} {
			if f := a.d.InDir(d, k); f != nil {
				f.Claimed = true
				a.hadoop(f, via, a.d.Display(d))
			}
		}
	}
	if csite != "" {
		if f := a.d.Get(csite); f != nil && f.Format != parsed.FlinkDeployment {
			f.Claimed = true
			a.plan.ClusterHDFS = f
		}
	}
	if hconf != "" {
		add(hconf, "deployment")
		return
	}
	if a.nativeHadoopConfigMap(s) {
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
			ref, rd := a.confRef(s, key, e, dir)
			if rd != "" {
				a.ensureHadoopFiles(rd)
				add(rd, key)
				resolvedAny = true
			}
			s.HadoopConfRefs = append(s.HadoopConfRefs, ref)
		}
	}
	if !resolvedAny {
		add(dir, "same-dir")
	}
}

// confRef resolves a Flink key naming a Hadoop conf dir; rd is the
// directory to load, empty when the key resolves nowhere or the release
// does not read it (ref.Reason says which).
func (a *assembler) confRef(s *model.Set, key string, e *parsed.Entry, dir string) (ref model.ConfRef, rd string) {
	ref = model.ConfRef{Key: key, Value: e.Value, Loc: model.LocOf(e.File, e.ValueSpan)}
	rd, reason := a.resolveConfDir(strings.TrimSpace(e.Value), dir)
	if rd == "" {
		ref.Reason = reason
		return ref, ""
	}
	ref.Resolved = a.d.Display(rd)
	switch {
	case key == "fs.hdfs.hadoopconf" && !s.FlinkVersion.Version.Less(model.V(2, 0)):
		ref.Reason = "Flink 2.x no longer reads fs.hdfs.hadoopconf"
		return ref, ""
	case key == "env.hadoop.conf.dir" && s.FlinkVersion.Known() && s.FlinkVersion.Version.Less(model.V(1, 6)):
		// bin/config.sh sets HADOOP_CONF_DIR from it only from 1.6
		// (FLINK-6222); CKPT604 reports the key as unread.
		ref.Reason = "Flink reads env.hadoop.conf.dir only from 1.6"
		return ref, ""
	}
	return ref, rd
}

// ensureHadoopFiles parses the Hadoop files of a conf dir outside the
// walked paths.
func (a *assembler) ensureHadoopFiles(dir string) {
	for _, n := range format.FileNames(format.Hadoop) {
		p := filepath.Join(dir, n)
		if a.d.Get(p) != nil {
			continue
		}
		if a.d.IsFile(p) {
			_ = a.d.Add(p, true)
		}
	}
}

// resolveConfDir maps a directory named in a Flink option to a directory of
// the repository: path_mappings for absolute paths, else relative to the
// Flink file's directory, then to the .ckptlint.hcl directory.
func (a *assembler) resolveConfDir(v, flinkDir string) (string, string) {
	isDir := func(p string) bool { st, err := a.d.Stat(p); return err == nil && st.IsDir() }
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
		_, err := a.d.Check(p)
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

// nativeHadoopConfigMap attaches the core-site.xml and hdfs-site.xml of the
// ConfigMap kubernetes.hadoop.conf.config-map.name names (Flink's native
// Kubernetes mode, from 1.11: HadoopConfMountDecorator mounts it at
// /opt/hadoop/conf in the JobManager and TaskManager pods and sets
// HADOOP_CONF_DIR there, which HadoopUtils.getHadoopConfiguration loads
// last), when the repository holds that ConfigMap.
func (a *assembler) nativeHadoopConfigMap(s *model.Set) bool {
	if s.Flink == nil || s.Flink.Err != nil || s.FlinkVersion.Known() && s.FlinkVersion.Version.Less(model.V(1, 11)) {
		return false
	}
	e := s.Flink.Lookup("kubernetes.hadoop.conf.config-map.name")
	if e == nil || strings.TrimSpace(e.Value) == "" {
		return false
	}
	name := strings.TrimSpace(e.Value)
	for _, cm := range a.configMaps {
		if cm.Name != name {
			continue
		}
		via := fmt.Sprintf("which Flink mounts at /opt/hadoop/conf and reads through HADOOP_CONF_DIR from ConfigMap %s (%s), as kubernetes.hadoop.conf.config-map.name (%s:%d) names it",
			name, cm.Loc, e.File, e.ValueSpan.Start.Line)
		return a.hadoopTexts(cm.Data, via)
	}
	return false
}
