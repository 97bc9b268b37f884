package assemble

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ckptlint/ckptlint/internal/deploy"
	"github.com/ckptlint/ckptlint/internal/discover"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// deployed builds the set of a cluster the repository's deployment files
// describe (internal/deploy): the Flink configuration its processes read
// (a repository file, a ConfigMap key, FLINK_PROPERTIES) with the Hadoop
// files they load, joined through the mounts, copies and variables that
// bring them there. A cluster whose processes read no configuration of the
// repository (the image's own, without FLINK_PROPERTIES) makes no set.
// The files it claims form no set of their own.
func (a *assembler) deployed(c *deploy.Cluster, claimed map[string]bool) {
	flinkFile, err := a.provided(c.Flink)
	if err != nil {
		a.d.Note(err.Error())
		return
	}
	var props *discover.Found
	if c.FlinkProperties != nil {
		if props, err = a.text(c.FlinkProperties); err != nil {
			a.d.Note(err.Error())
		}
	}
	if flinkFile == nil {
		flinkFile, props = props, nil
	}
	if flinkFile == nil || !isFlinkFormat(flinkFile.Format) {
		return
	}
	claimed[flinkFile.Path] = true
	s := a.start(c.Name)
	s.Flink = a.flink(flinkFile)
	if props != nil {
		s.FlinkOverlay = a.flink(props)
	}
	subject := deploy.Subject(c.Workloads)
	if h := c.Hadoop; h != nil {
		// The Hadoop files' findings are one per file, whichever set
		// reports them: they name every workload loading them.
		readers := c.HadoopReaders
		if len(readers) == 0 {
			readers = c.Workloads
		}
		chain := c.HadoopChain
		if chain == nil {
			chain = h.Chain
		}
		a.deployedHadoop(h, chain.Clause(deploy.Subject(readers), len(readers) > 1))
	}
	if p := c.ClusterHDFS; p != nil {
		if f, err := a.provided(p); err == nil && f != nil && f.Format == parsed.HadoopHDFSSite {
			f.Claimed = true
			a.plan.ClusterHDFS = f
			a.plan.ClusterHDFSChain = p.Chain.Clause("the HDFS daemons", true)
		}
	}
	if len(c.Workloads) > 0 {
		s.Deployed = deployedModel(c, subject)
	}
	dir := filepath.Dir(flinkFile.Path)
	a.vers.Resolve(s, nil, nil, dir)
	a.cluster(s, nil)
	a.emit()
}

// deployedHadoop adds the Hadoop client files of directory h, which the
// processes reach through chain, to the set being built.
func (a *assembler) deployedHadoop(h *deploy.ProvidedDir, chain string) {
	switch {
	case h.Dir != "":
		dir := a.abs(h.Dir)
		a.ensureHadoopFiles(dir)
		for _, k := range []parsed.Format{parsed.HadoopCoreSite, parsed.HadoopHDFSSite} {
			if f := a.d.InDir(dir, k); f != nil {
				f.Claimed = true
				a.hadoop(f, "deployment", h.Dir)
				a.plan.Hadoop[len(a.plan.Hadoop)-1].Chain = chain
			}
		}
	case len(h.Texts) > 0:
		a.hadoopTexts(h.Texts, chain)
	}
}

// hadoopTexts adds the core-site.xml and hdfs-site.xml of texts (a
// ConfigMap's keys, files an entrypoint writes), which the processes reach
// through chain, to the set being built; it reports whether one was.
func (a *assembler) hadoopTexts(texts map[string]*deploy.Text, chain string) bool {
	found := false
	for _, name := range []string{"core-site.xml", "hdfs-site.xml"} {
		t := texts[name]
		if t == nil {
			continue
		}
		f, err := a.text(t)
		if err != nil || f == nil {
			if err != nil {
				a.d.Note(err.Error())
			}
			continue
		}
		f.Claimed = true
		a.hadoop(f, "deployment", t.Container)
		a.plan.Hadoop[len(a.plan.Hadoop)-1].Chain = chain
		found = true
	}
	return found
}

// provided is the Found of a file the deployment provides: a repository
// file (read into the Tree if discovery has not yet) or a text written
// inside another file.
func (a *assembler) provided(p *deploy.Provided) (*discover.Found, error) {
	switch {
	case p == nil:
		return nil, nil
	case p.Text != nil:
		return a.text(p.Text)
	}
	abs := a.abs(p.File)
	if a.d.Get(abs) == nil {
		if err := a.d.Add(abs, true); err != nil {
			return nil, err
		}
	}
	return a.d.Get(abs), nil
}

// text is the Found of a text written inside a deployment file.
func (a *assembler) text(t *deploy.Text) (*discover.Found, error) {
	if f := a.d.Get(a.abs(t.Container)); f != nil && !f.Embedded() && t.Exact && t.Start == 0 && t.End == len(f.Src) && t.Name == filepath.Base(f.Path) {
		// The whole of a configuration file of the repository (a
		// configMapGenerator's file, a chart's .Files.Get): the file itself.
		return f, nil
	}
	src := a.d.SourceOf(t.Container)
	if src == nil {
		return nil, fmt.Errorf("%s: %s not read: its file is not a deployment file ckptlint read", t.Loc, t.Name)
	}
	return a.d.AddText(t, src)
}

// abs is the OS path of a repository display path.
func (a *assembler) abs(disp string) string {
	p := filepath.FromSlash(disp)
	if !filepath.IsAbs(p) {
		p = filepath.Join(a.d.Cwd(), p)
	}
	return filepath.Clean(p)
}

func isFlinkFormat(f parsed.Format) bool {
	return f == parsed.FlinkConfLegacy || f == parsed.FlinkConfigYAML
}

// deployedModel is what the policies see of the cluster
// (docs/input.md, "deployed").
func deployedModel(c *deploy.Cluster, subject string) *model.Deployed {
	plural := len(c.Workloads) > 1
	d := &model.Deployed{Name: c.Name, Subject: subject, Image: c.Image, ImageLoc: locOf(c.ImageLoc)}
	for _, w := range c.Workloads {
		d.Processes = append(d.Processes, processOf(w))
	}
	for _, w := range c.Peers {
		d.Peers = append(d.Peers, processOf(w))
	}
	if c.Flink != nil {
		d.FlinkChain = c.Flink.Chain.Clause(subject, plural)
	}
	if h := c.Hadoop; h != nil {
		d.HadoopDir, d.HadoopChain, d.HadoopMissing = h.Dir, h.Chain.Clause(subject, plural), h.Missing
		if h.Missing != "" {
			d.HadoopMissing = subject + map[bool]string{true: " load", false: " loads"}[plural] + " no Hadoop files from the repository: " + h.Missing + "; Hadoop's defaults apply"
		}
	}
	cp := c.Classpath
	d.Classpath = model.Classpath{Known: cp.Known, OnClasspath: cp.OnClasspath, Why: cp.Why, Loc: locOf(cp.Loc)}
	return d
}

// processOf is what the policies see of a workload.
func processOf(w *deploy.Workload) model.Process {
	p := model.Process{Name: w.Name, Source: w.Source, Role: w.Role, Replicas: max(w.Replicas, 1), Image: w.Image, Loc: locOf(w.Loc)}
	for _, mt := range w.Mounts {
		sharing, why := sharingOf(w.Source, mt.Volume)
		p.Mounts = append(p.Mounts, model.ProcessMount{Path: mt.Path, Kind: mt.Volume.Kind, Name: mt.Volume.Name, Source: mt.Volume.Path,
			Volume: volumeName(mt.Volume), Sharing: sharing, Why: why, Loc: locOf(mt.Loc)})
	}
	return p
}

// sharingOf says whether the processes that mount volume v see the same
// files, and why. docker-compose runs every service of a project on one
// Docker host (the compose specification's model without Swarm), so a
// bind mount of one host directory or one named volume is the same files
// in every service. Kubernetes schedules pods on any node: only a network
// file system (NFS, a ReadWriteMany claim that is not a StatefulSet's per-pod
// claim) is shared; a hostPath is each node's disk, an emptyDir each
// pod's (https://kubernetes.io/docs/concepts/storage/volumes/).
func sharingOf(source string, v deploy.Volume) (string, string) {
	compose := source == "compose"
	switch v.Kind {
	case deploy.VolumeNFS:
		return model.SharingShared, "an NFS volume is one file system for every pod"
	case deploy.VolumeNamed:
		if compose {
			return model.SharingShared, "a named volume is one directory on the Docker host for every service"
		}
	case deploy.VolumeRepo, deploy.VolumeHost:
		if compose {
			return model.SharingShared, "a bind mount is one host directory for every service of the project"
		}
		return model.SharingLocal, "a hostPath is the disk of the node each pod runs on"
	case deploy.VolumeEmpty:
		return model.SharingLocal, "an emptyDir lives and dies with its pod, so every pod has its own"
	case deploy.VolumeConfigMap:
		return model.SharingLocal, "a ConfigMap volume is read-only"
	case deploy.VolumeClaim:
		if v.PerPod {
			return model.SharingLocal, "a StatefulSet's volumeClaimTemplates give every pod a claim of its own"
		}
		if len(v.AccessModes) == 0 {
			return model.SharingUnknown, "its PersistentVolumeClaim is not in the repository, so its access modes are unknown"
		}
		for _, m := range v.AccessModes {
			if strings.EqualFold(m, "ReadWriteMany") {
				return model.SharingShared, "a ReadWriteMany claim is one file system for every pod"
			}
		}
		return model.SharingLocal, "a claim of access modes " + strings.Join(v.AccessModes, ", ") + " attaches to one node at a time"
	}
	return model.SharingUnknown, "ckptlint does not know whether it is shared"
}

// volumeName names a volume in a sentence.
func volumeName(v deploy.Volume) string {
	switch v.Kind {
	case deploy.VolumeRepo:
		return v.Path + " of the repository"
	case deploy.VolumeHost:
		return "host path " + v.Path
	case deploy.VolumeNamed:
		return "named volume " + v.Name
	case deploy.VolumeClaim:
		return "claim " + v.Name
	case deploy.VolumeEmpty:
		return "emptyDir " + v.Name
	case deploy.VolumeConfigMap:
		return "ConfigMap " + v.Name
	}
	if v.Name != "" {
		return v.Kind + " volume " + v.Name
	}
	return v.Kind + " volume"
}

func locOf(l deploy.Loc) *model.Loc {
	if l.File == "" {
		return nil
	}
	return model.LocOf(l.File, parsed.At(parsed.Pos{Line: l.Line, Col: 1}))
}
