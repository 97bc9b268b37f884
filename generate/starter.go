package generate

import (
	"fmt"
	"strings"
	"time"

	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/model"
)

// LatestFlink and LatestHadoop are the versions a starter config set is written for
// when neither a flag nor .ckptlint.hcl declares one: the newest releases
// the rules were checked against.
var (
	LatestFlink  = model.V(2, 0)
	LatestHadoop = model.Version{Major: 3, Minor: 4, Patch: 1}
)

// oldestFlink is the first release with the execution.checkpointing.* keys.
var oldestFlink = model.V(1, 10)

// Facts the values are computed with (Hadoop defaults, rule thresholds).
const (
	mib               = int64(1 << 20)
	fileCap           = int64(16 << 30) // CKPT105: a checkpoint file must be able to reach 16 GiB
	headroom          = 10              // scheduled-space headroom aimed at (CKPT101 warns below 2x)
	maxBlocksPerFile  = 10000           // dfs.namenode.fs-limits.max-blocks-per-file default
	minBlocksForWrite = 1               // dfs.namenode.block-placement.min-blocks-for.write default
	hadoopDefaultBS   = 128 * mib       // dfs.blocksize default
	manyBlocks        = 1000000         // block replicas per DataNode that make a scan slow (CKPT301)
	timeoutDefault    = 10 * time.Minute
)

// StarterOptions select what NewStarter generates for. Cluster may be
// empty when the deployment names one or the file declares exactly one;
// the versions override .ckptlint.hcl, as the global flags do in lint.
type StarterOptions struct {
	Config                      *config.Config
	Cluster, Deployment         string
	FlinkVersion, HadoopVersion string
}

// StarterFile is one generated file, its path relative to the output
// directory (slash-separated) and what it is for.
type StarterFile struct {
	Path    string
	Role    string
	Content []byte
}

// Starter is a complete generated config set and the notes a person must
// read before deploying it (assumed versions, compromises, placeholders).
type Starter struct {
	Cluster, Deployment string
	Flink, Hadoop       string // versions as used, with where they came from
	Files               []StarterFile
	Notes               []string
}

// setting is one generated value and the reason for it.
type setting struct {
	key, value, tag, why string // tag: YAML tag of a Flink value (!!int, !!bool, !!str)
}

// plan holds the resolved facts a starter config set is computed from.
type plan struct {
	cl                    *config.Cluster
	dep                   *config.Deployment
	size                  config.FlinkSize // the deployment's TaskManagers and slots, else the cluster's
	flink, hadoop         model.Version
	flinkText, hadoopText string // "Flink 1.13", "Hadoop 2.7.3"
	flinkFrom, hadoopFrom string // where each version came from
	// dn is the version the DataNodes run, for the DataNode settings: the
	// cluster's datanode_hadoop_version (what `ckptlint facts` reads from
	// the NameNode, and what CKPT301/CKPT302 judge), else hadoop.
	dn              model.Version
	dnText, dnFrom  string
	par, parCounted int // parallelism written, and the one lint counts files with
	parWhy          string
	notes           []string
}

// NewStarter computes a starter config set for a declared cluster (and
// optionally deployment): the Flink configuration in the file format the
// Flink version reads, the hdfs-site.xml for Flink's HDFS client and a
// DataNode hdfs-site.xml snippet, every value commented with its reason.
func NewStarter(opts StarterOptions) (*Starter, error) {
	p, err := newPlan(opts)
	if err != nil {
		return nil, err
	}
	b := &Starter{Cluster: p.cl.Name, Flink: p.flinkText + " (" + p.flinkFrom + ")", Hadoop: p.hadoopText + " (" + p.hadoopFrom + ")"}
	if p.dep != nil {
		b.Deployment = p.dep.Name
	}
	flinkName, flinkRole := "config.yaml", "Flink configuration (standard YAML)"
	if !p.flink.AtLeast(model.V(1, 19)) {
		flinkName, flinkRole = "flink-conf.yaml", "Flink configuration (legacy flat format)"
	}
	fs, client, dn := p.flinkSettings(), p.clientSettings(), p.datanodeSettings()
	b.Files = []StarterFile{
		{Path: flinkName, Role: flinkRole, Content: p.flinkFile(flinkName, fs)},
		{Path: "hdfs-site.xml", Role: "HDFS client settings for Flink (HADOOP_CONF_DIR)", Content: hadoopXML(p.clientHeader(), client)},
		{Path: "datanode/hdfs-site.xml", Role: "properties to merge into every DataNode's hdfs-site.xml", Content: hadoopXML(p.datanodeHeader(), dn)},
	}
	p.notes = append(p.notes, fmt.Sprintf("adjust the checkpoint and savepoint directories in %s: hdfs:/// takes the NameNode from fs.defaultFS in the core-site.xml Flink's HDFS client reads", flinkName))
	b.Notes = p.notes
	return b, nil
}

func newPlan(opts StarterOptions) (*plan, error) {
	cfg := opts.Config
	if cfg == nil {
		cfg = &config.Config{}
	}
	p := &plan{}
	if opts.Deployment != "" {
		for i := range cfg.Deployments {
			if cfg.Deployments[i].Name == opts.Deployment {
				p.dep = &cfg.Deployments[i]
			}
		}
		if p.dep == nil {
			return nil, fmt.Errorf("no deployment %q in .ckptlint.hcl (%s)", opts.Deployment, names(len(cfg.Deployments), func(i int) string { return cfg.Deployments[i].Name }))
		}
	}
	name := opts.Cluster
	switch {
	case name != "" && p.dep != nil && p.dep.Cluster != "" && p.dep.Cluster != name:
		return nil, fmt.Errorf("--cluster %s, but deployment %q runs on cluster %q", name, p.dep.Name, p.dep.Cluster)
	case name == "" && p.dep != nil && p.dep.Cluster != "":
		name = p.dep.Cluster
	case name == "" && len(cfg.Clusters) == 1:
		name = cfg.Clusters[0].Name
	case name == "":
		return nil, fmt.Errorf("name the cluster to generate for with --cluster (%s)", names(len(cfg.Clusters), func(i int) string { return cfg.Clusters[i].Name }))
	}
	if p.cl = cfg.ClusterByName(name); p.cl == nil {
		return nil, fmt.Errorf("no cluster %q in .ckptlint.hcl (%s)", name, names(len(cfg.Clusters), func(i int) string { return cfg.Clusters[i].Name }))
	}
	depVersion := ""
	if p.dep != nil {
		depVersion = p.dep.FlinkVersion
	}
	var err error
	if p.flink, p.flinkText, p.flinkFrom, err = p.version("Flink", LatestFlink, []string{opts.FlinkVersion, depVersion, cfg.FlinkVersion},
		[]string{"--flink-version", fmt.Sprintf("deployment %q", opts.Deployment), "flink_version in .ckptlint.hcl"}); err != nil {
		return nil, err
	}
	if p.hadoop, p.hadoopText, p.hadoopFrom, err = p.version("Hadoop", LatestHadoop, []string{opts.HadoopVersion, p.cl.HadoopVersion, cfg.HadoopVersion},
		[]string{"--hadoop-version", fmt.Sprintf("cluster %q", name), "hadoop_version in .ckptlint.hcl"}); err != nil {
		return nil, err
	}
	if p.flink.Less(oldestFlink) || p.flink.Major > 2 {
		return nil, fmt.Errorf("Flink %s: ckptlint generate writes configurations for Flink 1.10 to 2.x", p.flink)
	}
	if p.hadoop.Major < 2 || p.hadoop.Major > 3 {
		return nil, fmt.Errorf("Hadoop %s: ckptlint generate writes configurations for Hadoop 2.x and 3.x", p.hadoop)
	}
	p.dn, p.dnText, p.dnFrom = p.hadoop, p.hadoopText, p.hadoopFrom
	if v := p.cl.DatanodeHadoopVersion; v != "" {
		dn, err := model.ParseVersion(v)
		if err != nil {
			return nil, fmt.Errorf("datanode_hadoop_version of cluster %q: %w", p.cl.Name, err)
		}
		p.dn, p.dnText, p.dnFrom = dn, "Hadoop "+v, fmt.Sprintf("datanode_hadoop_version of cluster %q", p.cl.Name)
	}
	p.size = config.SizeOf(p.dep, p.cl)
	p.par, p.parCounted, p.parWhy = p.parallelism()
	return p, nil
}

// version takes the first declared candidate, else latest with a note.
func (p *plan) version(what string, latest model.Version, cands, froms []string) (model.Version, string, string, error) {
	for i, c := range cands {
		if c == "" {
			continue
		}
		v, err := model.ParseVersion(c)
		if err != nil {
			return model.Version{}, "", "", fmt.Errorf("%s: %w", froms[i], err)
		}
		return v, what + " " + c, froms[i], nil
	}
	p.notes = append(p.notes, fmt.Sprintf("no %s version is declared: generated for %s %s, the latest ckptlint generate supports; declare %s_version in .ckptlint.hcl or pass --%s-version",
		what, what, latest, strings.ToLower(what), strings.ToLower(what)))
	return latest, fmt.Sprintf("%s %s", what, latest), "assumed: the latest ckptlint generate supports", nil
}

func names(n int, name func(int) string) string {
	if n == 0 {
		return "it declares none"
	}
	var ns []string
	for i := range n {
		ns = append(ns, fmt.Sprintf("%q", name(i)))
	}
	return "declared: " + strings.Join(ns, ", ")
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// label names the config set in comments and paths.
func (p *plan) label() string {
	if p.dep != nil {
		return p.dep.Name
	}
	return p.cl.Name
}

func (p *plan) where() string {
	if p.dep != nil {
		return fmt.Sprintf("cluster %q, deployment %q", p.cl.Name, p.dep.Name)
	}
	return fmt.Sprintf("cluster %q", p.cl.Name)
}

// jobs and operators per job as the rules count them: declared or 1.
func (p *plan) jobs() int {
	return intOr(p.depInt(func(d *config.Deployment) *int { return d.Jobs }), 1)
}
func (p *plan) operators() int {
	return intOr(p.depInt(func(d *config.Deployment) *int { return d.StatefulOperators }), 1)
}

func (p *plan) depInt(f func(*config.Deployment) *int) *int {
	if p.dep == nil {
		return nil
	}
	return f(p.dep)
}

// parallelism returns the value to write, the parallelism the rules will
// count files with (a declared deployment parallelism wins in lint), and why.
// The slots are this deployment's Flink cluster's (its deployment block's
// taskmanagers and slots_per_taskmanager, else the cluster block's).
func (p *plan) parallelism() (write, counted int, why string) {
	declared := p.depInt(func(d *config.Deployment) *int { return d.Parallelism })
	tms, slots := p.size.TaskManagers, p.size.SlotsPerTaskManager
	fit, fitText := 0, ""
	if tms != nil && slots != nil {
		fit = *tms * *slots / p.jobs()
		fitText = fmt.Sprintf("%d TaskManagers (taskmanagers of %s) x %d slots (slots_per_taskmanager of %s) / %d job(s) = %d",
			*tms, p.size.TaskManagersFrom, *slots, p.size.SlotsPerTaskManagerFrom, p.jobs(), fit)
	}
	switch {
	case declared != nil && fit > 0 && *declared > fit:
		p.notes = append(p.notes, fmt.Sprintf("deployment %q declares parallelism %d, but its Flink cluster has slots for %d per job: parallelism.default is %d, and ckptlint lint reports the declared parallelism (CKPT401) until the cluster or the declaration changes", p.dep.Name, *declared, fit, fit))
		return fit, *declared, fmt.Sprintf("%d = %s, below the parallelism %d declared for deployment %q, which does not fit the cluster's task slots (CKPT401)", fit, fitText, *declared, p.dep.Name)
	case declared != nil && fit > 0:
		return *declared, *declared, fmt.Sprintf("%d = min(parallelism %d of deployment %q, %s): every job gets all its slots (CKPT401)", *declared, *declared, p.dep.Name, fitText)
	case declared != nil:
		return *declared, *declared, fmt.Sprintf("%d: parallelism of deployment %q (declare taskmanagers and slots_per_taskmanager for deployment %q to check it fits, CKPT401)", *declared, p.dep.Name, p.dep.Name)
	case fit > 0:
		return fit, fit, fmt.Sprintf("%d = %s: the widest parallelism at which every job gets all its slots (CKPT401)", fit, fitText)
	case tms != nil && slots != nil:
		p.notes = append(p.notes, fmt.Sprintf("%s has fewer task slots (%s) than jobs: parallelism.default is 1", p.flinkCluster(), fitText))
		return 1, 1, fmt.Sprintf("1: %s, fewer slots than jobs (CKPT401)", fitText)
	}
	return 1, 1, fmt.Sprintf("1, Flink's default: no parallelism is declared for the deployment and no taskmanagers and slots_per_taskmanager for %s", p.flinkCluster())
}

// flinkCluster names where the Flink cluster's size is declared: the
// deployment block, else (the old place) the cluster block.
func (p *plan) flinkCluster() string {
	if p.dep != nil {
		return fmt.Sprintf("deployment %q", p.dep.Name)
	}
	return fmt.Sprintf("cluster %q", p.cl.Name)
}

// flinkKey is the spelling of a key that the Flink version reads without a
// deprecation warning: newer from the version that renamed it.
func (p *plan) flinkKey(old, newer string, since model.Version) string {
	if p.flink.AtLeast(since) {
		return newer
	}
	return old
}
