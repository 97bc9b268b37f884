package config

import (
	"path/filepath"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// FileName is the name of the configuration file that Find looks for.
const FileName = ".ckptlint.hcl"

// Config is a decoded .ckptlint.hcl. The zero value is a valid empty
// configuration; methods also accept a nil *Config, which behaves like an
// empty one.
type Config struct {
	// Path is the configuration file as given to Load, "" when there is none.
	Path string
	// Dir is the absolute directory of Path; relative paths in the file
	// (policy_dirs, ignore, path_mappings values, deployment paths) are
	// relative to it.
	Dir string
	// FlinkVersion and HadoopVersion are the top-level declared versions,
	// major.minor[.patch], "" when unset.
	FlinkVersion  string
	HadoopVersion string
	// PolicyDirs are extra Rego policy directories, as written (slash paths
	// relative to Dir unless absolute; see Resolve).
	PolicyDirs []string
	// Ignore are glob patterns on slash paths relative to Dir; see Ignored.
	Ignore []string
	// PathMappings maps an absolute directory named inside a Flink config
	// (for example fs.hdfs.hadoopconf) to a directory relative to Dir.
	PathMappings map[string]string
	// Placeholders is "detect" (template placeholders are unknown values,
	// the default) or "literal" (the files are rendered output); "" when
	// unset. See docs/templates.md.
	Placeholders string
	// Clusters, Deployments and Rules are the blocks in file order,
	// duplicates included (Validate reports them).
	Clusters    []Cluster
	Deployments []Deployment
	Rules       []Rule
}

// Cluster holds the facts of one cluster "name" block. A nil pointer field
// means the attribute is not set.
type Cluster struct {
	// Name is the block label.
	Name string
	// Datanodes is the number of DataNodes.
	Datanodes *int
	// DatanodeFreeBytes is the free space per DataNode in bytes.
	DatanodeFreeBytes *int64
	// DatanodeBlocks is the number of block replicas per DataNode.
	DatanodeBlocks *int64
	// TaskManagers and SlotsPerTaskManager size the Flink cluster.
	TaskManagers        *int
	SlotsPerTaskManager *int
	// HadoopVersion is the block's hadoop_version, "" when unset; it
	// overrides Config.HadoopVersion for this cluster.
	HadoopVersion string
	// MinBlockSize is the NameNode's dfs.namenode.fs-limits.min-block-size
	// in bytes, for when no cluster hdfs-site.xml says it.
	MinBlockSize *int64
	// WriteStall is the observed worst HDFS write stall.
	WriteStall *time.Duration
	// OtherWriters is the number of other concurrent HDFS writers (open
	// blocks) per DataNode.
	OtherWriters *int
	// DefRange is the range of the block header, `cluster "name"`.
	DefRange hcl.Range
}

// Deployment associates one Flink configuration with its Hadoop files and
// cluster. Paths are as written, relative to Config.Dir unless absolute.
type Deployment struct {
	// Name is the block label.
	Name string
	// FlinkConf is a Flink config file, the directory holding it, or a
	// FlinkDeployment manifest. It is required.
	FlinkConf string
	// HadoopConf is the directory holding the client core-site.xml and
	// hdfs-site.xml.
	HadoopConf string
	// ClusterHDFSSite is the cluster's own hdfs-site.xml.
	ClusterHDFSSite string
	// Cluster names a cluster block ("" when unset).
	Cluster string
	// FlinkVersion is the block's flink_version, "" when unset; it overrides
	// Config.FlinkVersion for this deployment.
	FlinkVersion string
	// Jobs is the number of jobs sharing the cluster with this config.
	Jobs *int
	// StatefulOperators is the number of stateful operators per job.
	StatefulOperators *int
	// Parallelism overrides parallelism.default.
	Parallelism *int
	// CheckpointP99 is the observed p99 checkpoint duration.
	CheckpointP99 *time.Duration
	// DefRange is the range of the block header, `deployment "name"`.
	DefRange hcl.Range
	// ClusterRange is the range of the cluster attribute's value, for
	// diagnostics about the reference.
	ClusterRange hcl.Range
}

// Rule is one rule "ID" block.
type Rule struct {
	// ID is the block label, a rule id such as "CKPT101".
	ID string
	// Enabled is nil when the block does not say.
	Enabled *bool
	// Severity is "error", "warning", "info", or "" to keep the rule's own.
	Severity string
	// DefRange is the range of the block header, `rule "ID"`.
	DefRange hcl.Range
	// IDRange is the range of the ID label.
	IDRange hcl.Range
}

// ClusterByName returns the cluster block called name, or nil.
func (c *Config) ClusterByName(name string) *Cluster {
	if c == nil {
		return nil
	}
	for i := range c.Clusters {
		if c.Clusters[i].Name == name {
			return &c.Clusters[i]
		}
	}
	return nil
}

// ClusterFor is the cluster a deployment runs on: the cluster its block
// names, else the only cluster block when there is exactly one, else nil.
func (c *Config) ClusterFor(dep *Deployment) *Cluster {
	if c == nil {
		return nil
	}
	if dep != nil && dep.Cluster != "" {
		return c.ClusterByName(dep.Cluster)
	}
	if len(c.Clusters) == 1 {
		return &c.Clusters[0]
	}
	return nil
}

// RuleByID returns the first rule block for id, or nil.
func (c *Config) RuleByID(id string) *Rule {
	if c == nil {
		return nil
	}
	for i := range c.Rules {
		if c.Rules[i].ID == id {
			return &c.Rules[i]
		}
	}
	return nil
}

// Resolve turns a path written in the file (slash-separated, relative to
// the file's directory unless absolute) into an OS path.
func (c *Config) Resolve(p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) || c == nil || c.Dir == "" {
		return filepath.Clean(p)
	}
	return filepath.Join(c.Dir, p)
}
