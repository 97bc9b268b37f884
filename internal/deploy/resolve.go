package deploy

import (
	"path"
	"slices"
	"sort"
	"strings"
)

// Cluster is one Flink configuration as the processes that read it see
// it: which workloads run with it, where the Flink configuration and the
// Hadoop files they load come from (each with the chain of mounts,
// copies and variables that brings it there), and whether Hadoop's file
// system is on their classpath.
type Cluster struct {
	// Name names the cluster in messages: the group, or the workloads'
	// names.
	Name string
	// Workloads are the Flink workloads of the cluster, in the order the
	// sources declared them.
	Workloads []*Workload
	// Peers are every Flink workload of the group (the Flink cluster the
	// workloads belong to, also those reading another configuration): a
	// checkpoint directory is written by all of them.
	Peers []*Workload
	// Flink is the Flink configuration file the processes read; nil when
	// the repository does not provide one (the image's own configuration,
	// with FlinkProperties over it).
	Flink *Provided
	// FlinkProperties is the FLINK_PROPERTIES text the official image's
	// entrypoint applies over the configuration; Image says which
	// entrypoint (docs/deployment.md).
	FlinkProperties *Text
	// Hadoop is the Hadoop client configuration directory the processes
	// load core-site.xml and hdfs-site.xml from.
	Hadoop *ProvidedDir
	// HadoopReaders are the workloads of the group that load the same
	// Hadoop files, this cluster's and those of its peers that read
	// another Flink configuration (two services with their own
	// FLINK_PROPERTIES): a finding on a Hadoop file names them all.
	HadoopReaders []*Workload
	// HadoopChain is Hadoop's Chain with the same steps of those peers
	// (Link.Also): what a finding on a Hadoop file says, from whichever
	// set it is reported.
	HadoopChain Chain
	// ClusterHDFS is the hdfs-site.xml the group's NameNode and DataNodes
	// run with (a Hadoop workload beside the Flink ones), nil when none.
	ClusterHDFS *Provided
	// Classpath says whether Hadoop's file system is on the processes'
	// classpath, with the evidence.
	Classpath Classpath
	// Image is the image the processes run ("" for a host install), with
	// where it is named.
	Image    string
	ImageLoc Loc
}

// Provided is a file a process sees that the repository provides: a file
// of the repository (File, a display path) or a text written inside
// another file (Text); Chain says how it gets there.
type Provided struct {
	File  string
	Text  *Text
	Chain Chain
}

// ProvidedDir is the directory a process reads Hadoop files from: a
// directory of the repository (Dir) or texts by file name (a ConfigMap's
// keys, variables an image turns into files). Missing, when neither is
// known, says why.
type ProvidedDir struct {
	Path    string // the directory inside the container or host
	Dir     string
	Texts   map[string]*Text
	Chain   Chain
	Missing string
}

// Classpath is whether Hadoop's file system implementation is on Flink's
// classpath: OnClasspath true with the evidence, false with why (the
// official image ships no Hadoop), or Known false when nothing tells.
type Classpath struct {
	Known, OnClasspath bool
	Why                string
	Loc                Loc
}

// Link is one step of a chain: what a workload does (mounts a volume at a
// path, copies a file into its image, sets a variable), where it says so.
type Link struct {
	What string
	Loc  Loc
	// Also are where other workloads take the same step (each service's
	// own volumes line), named after Loc.
	Also []Loc
}

// Chain is how a file reaches a process, in order.
type Chain []Link

// String renders the chain for messages: "mounted at /etc/hadoop/conf
// (docker-compose.yml:31), read through HADOOP_CONF_DIR
// (docker-compose.yml:27)".
func (c Chain) String() string {
	parts := make([]string, len(c))
	for i, l := range c {
		parts[i] = l.What + " (" + l.Loc.String() + ")"
	}
	return strings.Join(parts, ", ")
}

// Official Flink image defaults (apache/flink-docker, Dockerfile-ubuntu.template:
// ENV FLINK_HOME /opt/flink, the configuration in $FLINK_HOME/conf).
const (
	defaultFlinkHome = "/opt/flink"
	// defaultHadoopConfDir is what Flink's bin/config.sh takes when
	// neither HADOOP_CONF_DIR nor HADOOP_CLASSPATH is set and the directory
	// exists ("Setting HADOOP_CONF_DIR=/etc/hadoop/conf because no
	// HADOOP_CONF_DIR or HADOOP_CLASSPATH was set.").
	defaultHadoopConfDir = "/etc/hadoop/conf"
)

// Resolve joins the model's workloads with what they mount, copy and set
// into the clusters the repository deploys. exists reports whether a
// repository path (display, slash-separated) is a regular file.
func Resolve(m *Model, exists func(path string) bool) []*Cluster {
	byGroup := map[string][]*Workload{}
	var groups []string
	for _, w := range m.Workloads {
		g := w.Group
		if g == "" {
			g = w.Source + ":" + w.Name
		}
		if _, ok := byGroup[g]; !ok {
			groups = append(groups, g)
		}
		byGroup[g] = append(byGroup[g], w)
	}
	var out []*Cluster
	for _, g := range groups {
		ws := byGroup[g]
		var hadoop []*Workload
		var flink []*Workload
		for _, w := range ws {
			switch {
			case w.Role == RoleHadoop:
				hadoop = append(hadoop, w)
			case isFlink(w):
				flink = append(flink, w)
			}
		}
		clusterHDFS := hdfsOf(m, hadoop, exists)
		// Workloads that see the same files are one cluster.
		byKey := map[string]*Cluster{}
		var order []string
		for _, w := range flink {
			v := &view{m: m, w: w, exists: exists}
			c := &Cluster{Image: w.Image, ImageLoc: w.ImageLoc}
			if b := w.Build; c.Image == "" && b != nil && b.From != "" {
				// Built from a Dockerfile: the release is its base image's.
				c.Image, c.ImageLoc = b.From, b.FromLoc
			}
			c.Flink, c.FlinkProperties = v.flinkConf()
			c.Hadoop = v.hadoopDir()
			c.Classpath = v.classpath()
			c.ClusterHDFS = clusterHDFS
			k := c.key()
			if prev, ok := byKey[k]; ok {
				prev.Workloads = append(prev.Workloads, w)
				continue
			}
			c.Workloads = []*Workload{w}
			byKey[k] = c
			order = append(order, k)
		}
		for _, k := range order {
			c := byKey[k]
			c.Name = clusterName(g, c.Workloads, len(order) > 1)
			c.Peers = flink
			if c.Hadoop != nil {
				var chains []Chain
				own := hadoopKey(c.Hadoop)
				for _, o := range order { // in the order the sources declared them
					if h := byKey[o].Hadoop; h != nil && hadoopKey(h) == own {
						c.HadoopReaders = append(c.HadoopReaders, byKey[o].Workloads...)
						chains = append(chains, h.Chain)
					}
				}
				c.HadoopChain = mergeChains(chains)
			}
			out = append(out, c)
		}
	}
	return append(out, loose(m, out)...)
}

// loose are the clusters of the Flink configuration texts no workload
// reads (a shell heredoc, a Dockerfile no service builds): each is linted
// where it is written, with no processes.
func loose(m *Model, cs []*Cluster) []*Cluster {
	used := map[*Text]bool{}
	for _, c := range cs {
		for _, p := range []*Provided{c.Flink} {
			if p != nil && p.Text != nil {
				used[p.Text] = true
			}
		}
		if c.FlinkProperties != nil {
			used[c.FlinkProperties] = true
		}
	}
	var out []*Cluster
	for _, t := range m.Texts {
		if used[t] || t.Name != "flink-conf.yaml" && t.Name != "config.yaml" {
			continue
		}
		used[t] = true
		out = append(out, &Cluster{Name: t.Loc.String() + "#" + t.Name, Flink: &Provided{Text: t}})
	}
	return out
}

// isFlink reports whether a workload runs Flink: a Flink role, or a Flink
// image with no role told.
func isFlink(w *Workload) bool {
	switch w.Role {
	case RoleJobManager, RoleTaskManager, RoleSession, RoleStandaloneJob:
		return true
	case "":
		return officialFlink(w.Image) || w.Build != nil && officialFlink(w.Build.From)
	}
	return false
}

// imageTag is the tag of an image reference ("" without one).
func imageTag(ref string) string {
	if i := strings.LastIndexByte(ref, ':'); i > strings.LastIndexByte(ref, '/') {
		return ref[i+1:]
	}
	return ""
}

// officialFlink reports whether an image reference is the official Flink
// image (flink, apache/flink; any tag).
func officialFlink(ref string) bool {
	name := ref
	if i := strings.LastIndexByte(name, ':'); i > strings.LastIndexByte(name, '/') {
		name = name[:i]
	}
	name = strings.TrimPrefix(name, "docker.io/")
	name = strings.TrimPrefix(name, "library/")
	return name == "flink" || name == "apache/flink"
}

// key identifies what a cluster's processes read.
// hadoopKey identifies the Hadoop files a directory holds: two
// workloads with one key load the same core-site.xml and hdfs-site.xml.
func hadoopKey(h *ProvidedDir) string {
	names := make([]string, 0, len(h.Texts))
	for n, t := range h.Texts {
		names = append(names, n+"@"+t.Loc.String())
	}
	sort.Strings(names)
	return h.Dir + strings.Join(names, ",")
}

func (c *Cluster) key() string {
	var b strings.Builder
	id := func(p *Provided) string {
		switch {
		case p == nil:
			return "-"
		case p.Text != nil:
			return "text:" + p.Text.Container + ":" + p.Text.Loc.String()
		}
		return "file:" + p.File
	}
	b.WriteString(id(c.Flink))
	if c.FlinkProperties != nil {
		b.WriteString("|props:" + c.FlinkProperties.Loc.String())
	}
	if h := c.Hadoop; h != nil {
		b.WriteString("|hadoop:" + hadoopKey(h))
	}
	b.WriteString("|" + c.Image)
	return b.String()
}

// clusterName names a cluster: its group, with the workloads' names when
// the group holds several clusters.
func clusterName(group string, ws []*Workload, several bool) string {
	if strings.Contains(group, ":") && len(ws) == 1 { // no group: the workload
		return ws[0].Loc.File + "#" + ws[0].Name
	}
	names := make([]string, len(ws))
	for i, w := range ws {
		names[i] = w.Name
	}
	if !several {
		return group
	}
	return group + " (" + strings.Join(names, ", ") + ")"
}

// view is what one workload's processes see.
type view struct {
	m      *Model
	w      *Workload
	exists func(string) bool
}

// env is the value of a variable of the workload (its own, else its
// image's ENV), with where it is set.
func (v *view) env(name string) (EnvVar, bool) {
	for i := len(v.w.Env) - 1; i >= 0; i-- {
		if e := v.w.Env[i]; e.Name == name {
			return e, true
		}
	}
	if b := v.w.Build; b != nil {
		for i := len(b.Env) - 1; i >= 0; i-- {
			if e := b.Env[i]; e.Name == name {
				return e, true
			}
		}
	}
	return EnvVar{}, false
}

// flinkConf finds the Flink configuration the workload reads: the file
// in $FLINK_CONF_DIR (else $FLINK_HOME/conf, /opt/flink/conf in the
// official image), and FLINK_PROPERTIES.
func (v *view) flinkConf() (*Provided, *Text) {
	dir := path.Join(defaultFlinkHome, "conf")
	var chain Chain
	if e, ok := v.env("FLINK_HOME"); ok && e.Value != "" {
		dir = path.Join(e.Value, "conf")
	}
	if e, ok := v.env("FLINK_CONF_DIR"); ok && e.Value != "" {
		dir = e.Value
		chain = append(chain, Link{What: "read through FLINK_CONF_DIR=" + e.Value, Loc: e.Loc})
	}
	var props *Text
	if e, ok := v.env("FLINK_PROPERTIES"); ok && e.Text != nil {
		props = e.Text
	}
	for _, name := range []string{"flink-conf.yaml", "config.yaml"} {
		if p := v.file(path.Join(dir, name)); p != nil {
			p.Chain = append(chain, p.Chain...)
			return p, props
		}
	}
	return nil, props
}

// hadoopDir finds the directory the workload's Flink loads Hadoop files
// from: $HADOOP_CONF_DIR, else what Flink's bin/config.sh derives
// ($HADOOP_HOME/etc/hadoop or $HADOOP_HOME/conf, then /etc/hadoop/conf when
// neither HADOOP_CONF_DIR nor HADOOP_CLASSPATH is set).
func (v *view) hadoopDir() *ProvidedDir {
	var dirs []string
	var via []Link
	if e, ok := v.env("HADOOP_CONF_DIR"); ok && e.Value != "" {
		dirs = []string{e.Value}
		via = []Link{{What: "read through HADOOP_CONF_DIR", Loc: e.Loc}}
	} else {
		if e, ok := v.env("HADOOP_HOME"); ok && e.Value != "" {
			dirs = append(dirs, path.Join(e.Value, "etc/hadoop"), path.Join(e.Value, "conf"))
			via = []Link{{What: "read through HADOOP_HOME (bin/config.sh)", Loc: e.Loc}}
		}
		if _, ok := v.env("HADOOP_CLASSPATH"); !ok {
			dirs = append(dirs, defaultHadoopConfDir)
		}
	}
	for i, d := range dirs {
		pd := v.dir(d)
		if pd == nil {
			continue
		}
		if len(via) == 0 || i > 0 && d == defaultHadoopConfDir {
			via = []Link{{What: "read as the directory Flink's bin/config.sh takes when HADOOP_CONF_DIR is not set", Loc: v.w.Loc}}
		}
		pd.Chain = append(pd.Chain, via...)
		return pd
	}
	miss := &ProvidedDir{}
	switch {
	case len(dirs) > 0 && len(via) > 0:
		miss.Path = dirs[0]
		miss.Missing = "HADOOP_CONF_DIR " + dirs[0] + " (" + via[0].Loc.String() + ") is a directory no volume or image copy of the repository provides"
	default:
		miss.Missing = "no HADOOP_CONF_DIR is set and no Hadoop configuration directory is mounted or copied in"
	}
	return miss
}

// file finds what the workload shows at container path p: a mount over
// it, else a file its image copies there.
func (v *view) file(p string) *Provided {
	if mt, rel, ok := v.mountAt(p); ok {
		return v.mounted(mt, rel)
	}
	if f := v.written(p); f != nil {
		return f
	}
	if b := v.w.Build; b != nil {
		for i := len(b.Copies) - 1; i >= 0; i-- {
			c := b.Copies[i]
			for _, f := range copied(c, p) {
				if v.exists(f) {
					return &Provided{File: f, Chain: Chain{{What: "copy into their image at " + c.Dest, Loc: c.Loc}}}
				}
			}
		}
	}
	return nil
}

// mounted is the file at rel below mount mt (rel "" is the mount itself).
func (v *view) mounted(mt Mount, rel string) *Provided {
	switch mt.Volume.Kind {
	case VolumeRepo:
		f := mt.Volume.Path
		if rel != "" {
			f = path.Join(f, rel)
		}
		if mt.SubPath != "" && rel == "" {
			f = path.Join(mt.Volume.Path, mt.SubPath)
		}
		if v.exists(f) {
			return &Provided{File: f, Chain: Chain{{What: "mount at " + mt.Path, Loc: mt.Loc}}}
		}
	case VolumeConfigMap:
		if t := v.configMapFile(mt, rel); t != nil {
			return &Provided{Text: t, Chain: Chain{{What: "mount as ConfigMap " + mt.Volume.Name + " at " + mt.Path, Loc: mt.Loc}}}
		}
	}
	return nil
}

// written is the text written whole at p by the workload's start (a
// host install's script, an image's entrypoint) or its image's build.
func (v *view) written(p string) *Provided {
	for _, t := range v.w.Texts {
		if t.Path == p && !t.Append {
			if v.w.Source == "shell" { // the script that starts them writes it
				return &Provided{Text: t, Chain: Chain{{What: "write at " + p, Loc: t.Loc}}}
			}
			return &Provided{Text: t, Chain: Chain{{What: "get written at " + p + " by their image's entrypoint", Loc: t.Loc}}}
		}
	}
	if b := v.w.Build; b != nil {
		for i := len(b.Texts) - 1; i >= 0; i-- {
			// A text appended to the image's own file (RUN echo >>) is
			// not the whole file: the image's part is not in the repository.
			if t := b.Texts[i]; t.Path == p && !t.Append {
				return &Provided{Text: t, Chain: Chain{{What: "get written into their image at " + p, Loc: t.Loc}}}
			}
		}
	}
	return nil
}

// dir is file for a directory: the Hadoop files it holds.
func (v *view) dir(p string) *ProvidedDir {
	pd := &ProvidedDir{Path: p, Texts: map[string]*Text{}}
	for _, name := range []string{"core-site.xml", "hdfs-site.xml"} {
		f := v.file(path.Join(p, name))
		switch {
		case f == nil:
		case f.Text != nil:
			pd.Texts[name] = f.Text
			pd.Chain = f.Chain
		default:
			pd.Dir = path.Dir(f.File)
			pd.Chain = f.Chain
		}
	}
	if pd.Dir == "" && len(pd.Texts) == 0 {
		return nil
	}
	return pd
}

// mountAt is the mount showing container path p (the deepest one), with
// p relative to its mount path ("" for the mount path itself).
func (v *view) mountAt(p string) (Mount, string, bool) {
	best, rel, found := Mount{}, "", false
	for _, mt := range v.w.Mounts {
		mp := path.Clean(mt.Path)
		switch {
		case mp == p:
			if !found || len(mp) >= len(best.Path) {
				best, rel, found = mt, "", true
			}
		case strings.HasPrefix(p, strings.TrimSuffix(mp, "/")+"/"):
			if !found || len(mp) > len(path.Clean(best.Path)) {
				best, rel, found = mt, strings.TrimPrefix(p, strings.TrimSuffix(mp, "/")+"/"), true
			}
		}
	}
	return best, rel, found
}

// configMapFile is the text a ConfigMap volume mount shows at rel below
// its mount path (or, with a subPath, at the mount path itself).
func (v *view) configMapFile(mt Mount, rel string) *Text {
	cm := v.m.configMap(mt.Volume.Name, "", v.w.Loc.File)
	if cm == nil {
		return nil
	}
	name := rel
	if rel == "" {
		name = mt.SubPath
	}
	if mt.Volume.Items != nil {
		for key, p := range mt.Volume.Items {
			if p == name {
				return cm.Data[key]
			}
		}
		return nil
	}
	return cm.Data[name]
}

// copied are the repository paths a COPY/ADD c could have put at p.
func copied(c Copy, p string) []string {
	dest := c.Dest
	if !path.IsAbs(dest) {
		return nil
	}
	d := path.Clean(dest)
	switch {
	case d == p:
		return []string{c.Src}
	case strings.HasPrefix(p, d+"/"):
		rel := strings.TrimPrefix(p, d+"/")
		// COPY dir/ /dest/ puts dir's files below /dest; COPY file /dest/
		// puts file there under its own name.
		return []string{path.Join(c.Src, rel), c.Src}
	}
	return nil
}

// classpath tells whether Hadoop's file system is on the workload's
// classpath: HADOOP_CLASSPATH set (what Flink's docs ask for: `export
// HADOOP_CLASSPATH=$(hadoop classpath)`), a flink-shaded-hadoop or Hadoop
// jar in Flink's lib directory, else not for the official image, which
// ships none (its Dockerfile downloads only the Flink distribution).
func (v *view) classpath() Classpath {
	if e, ok := v.env("HADOOP_CLASSPATH"); ok && e.Value != "" {
		return Classpath{Known: true, OnClasspath: true, Why: "HADOOP_CLASSPATH is set", Loc: e.Loc}
	}
	if b := v.w.Build; b != nil {
		for _, j := range b.Jars {
			base := strings.ToLower(path.Base(j.Dest))
			if strings.Contains(base, "shaded-hadoop") || strings.HasPrefix(base, "hadoop-") || strings.Contains(base, "hadoop-hdfs") {
				return Classpath{Known: true, OnClasspath: true, Why: "the image puts " + path.Base(j.Dest) + " into Flink's classpath", Loc: j.Loc}
			}
		}
	}
	img, loc := v.w.Image, v.w.ImageLoc
	if v.w.Build != nil {
		img, loc = v.w.Build.From, v.w.Build.FromLoc
	}
	if b := v.w.Build; b != nil {
		for _, ver := range b.Versions {
			if ver.Product == "hadoop" {
				// Hadoop installed in the image: whether its jars reach
				// Flink's classpath depends on how, which is not read.
				return Classpath{Why: "the image installs Hadoop (" + ver.What + ") but does not set HADOOP_CLASSPATH", Loc: ver.Loc}
			}
		}
	}
	if officialFlink(img) {
		if strings.Contains(imageTag(img), "hadoop") {
			// Up to 1.7 the official image had Hadoop variants
			// (flink:1.7.2-hadoop28-scala_2.11: the flink-*-bin-hadoop28
			// distribution, Hadoop bundled); from 1.8 no Flink release bundles
			// Hadoop (apache/flink-docker 89abc4a "Remove Hadoop variant
			// support", add-version.sh).
			return Classpath{Known: true, OnClasspath: true, Why: "the official Flink image " + img + " is a Hadoop variant", Loc: loc}
		}
		return Classpath{Known: true, Why: "the official Flink image " + img + " ships no Hadoop, and HADOOP_CLASSPATH is not set", Loc: loc}
	}
	return Classpath{}
}

// hdfsOf is the hdfs-site.xml the group's Hadoop workloads run with.
func hdfsOf(m *Model, ws []*Workload, exists func(string) bool) *Provided {
	for _, w := range ws {
		for _, e := range w.Env {
			if e.Text != nil && e.Text.Name == "hdfs-site.xml" {
				return &Provided{Text: e.Text, Chain: Chain{{What: "read from the HDFS_CONF_ variables of " + w.Name, Loc: e.Loc}}}
			}
		}
		v := &view{m: m, w: w, exists: exists}
		// bde2020's Hadoop images set HADOOP_CONF_DIR=/etc/hadoop in their
		// base image (big-data-europe/docker-hadoop base/Dockerfile), where
		// their entrypoint writes the HDFS_CONF_* variables.
		for _, d := range append(hadoopDirsOf(v), "/etc/hadoop") {
			if f := v.file(path.Join(d, "hdfs-site.xml")); f != nil {
				f.Chain = append(f.Chain, Link{What: "read in " + w.Name, Loc: w.Loc})
				return f
			}
		}
	}
	return nil
}

// hadoopDirsOf are the directories a Hadoop daemon reads its
// configuration from: $HADOOP_CONF_DIR, $HADOOP_HOME/etc/hadoop,
// /etc/hadoop/conf, /opt/hadoop/etc/hadoop (the apache/hadoop image).
func hadoopDirsOf(v *view) []string {
	var out []string
	if e, ok := v.env("HADOOP_CONF_DIR"); ok && e.Value != "" {
		out = append(out, e.Value)
	}
	if e, ok := v.env("HADOOP_HOME"); ok && e.Value != "" {
		out = append(out, path.Join(e.Value, "etc/hadoop"))
	}
	out = append(out, defaultHadoopConfDir, "/opt/hadoop/etc/hadoop")
	return slices.Compact(out)
}

// Subject names workloads in a sentence: "the jobmanager and taskmanager
// services", "the Deployment/flink-jobmanager workload".
func Subject(ws []*Workload) string {
	names := make([]string, len(ws))
	noun := "workload"
	for i, w := range ws {
		names[i] = w.Name
		if w.Source == "compose" {
			noun = "service"
		}
	}
	if len(names) > 1 {
		noun += "s"
	}
	list := strings.Join(names, ", ")
	if n := len(names); n > 1 {
		list = strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
	return "the " + list + " " + noun
}

// Clause renders the chain as a relative clause for messages: "which the
// jobmanager and taskmanager services mount at /etc/hadoop/conf
// (docker-compose.yml:31) and read through HADOOP_CONF_DIR
// (docker-compose.yml:27)"; "" for an empty chain. plural says whether
// subject names several workloads ("which the jobmanager service mounts").
func (c Chain) Clause(subject string, plural bool) string {
	if len(c) == 0 {
		return ""
	}
	parts := make([]string, len(c))
	for i, l := range c {
		what := l.What
		if !plural {
			what = singular(what)
		}
		locs := []string{l.Loc.String()}
		for _, a := range l.Also {
			locs = append(locs, a.String())
		}
		parts[i] = what + " (" + strings.Join(locs, ", ") + ")"
	}
	return "which " + subject + " " + strings.Join(parts, " and ")
}

// mergeChains is the first chain with the locations of the same steps of
// the others: a step of the same words at another place is one of its
// Also; a chain of other steps adds nothing (its workloads are still
// named, the places of the first stand for them).
func mergeChains(chains []Chain) Chain {
	if len(chains) == 0 {
		return nil
	}
	out := make(Chain, len(chains[0]))
	copy(out, chains[0])
	for i := range out {
		out[i].Also = nil
	}
	for _, c := range chains[1:] {
		if len(c) != len(out) {
			continue
		}
		for i, l := range c {
			if l.What != out[i].What {
				break
			}
			if l.Loc != out[i].Loc && !slices.Contains(out[i].Also, l.Loc) {
				out[i].Also = append(out[i].Also, l.Loc)
			}
		}
	}
	return out
}

// singular puts a link's verb phrase ("mount at", "copy into their
// image") in the third person singular.
func singular(what string) string {
	verb, rest, _ := strings.Cut(what, " ")
	switch verb {
	case "copy":
		verb = "copies"
	case "mount", "read", "get", "write":
		verb += "s"
	}
	rest = strings.ReplaceAll(" "+rest, " their ", " its ")
	return verb + rest
}
