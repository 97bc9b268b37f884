package config

import (
	"fmt"
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
	// FactsMaxAge is facts_max_age: a facts block observed longer ago is
	// stale. nil when unset; see MaxFactsAge for the default.
	FactsMaxAge *time.Duration
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
	// TaskManagers and SlotsPerTaskManager are the old place of the Flink
	// cluster's size: every deployment on this cluster that does not declare
	// its own uses them (Deployment.FlinkSize). `ckptlint facts` writes them
	// into the deployment block (docs/config.md, "Flink facts per deployment").
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
	// DatanodeBlocksScheduled is the largest number of blocks scheduled for
	// writing on one in-service DataNode (NameNodeInfo LiveNodes
	// "blockScheduled", DatanodeDescriptor.getBlocksScheduled).
	DatanodeBlocksScheduled *int64
	// DatanodeHadoopVersion is the Hadoop version the DataNodes run, ""
	// when unset; it can differ from the client's HadoopVersion.
	DatanodeHadoopVersion string
	// Facts are the facts blocks: where and when attributes were observed.
	Facts []Facts
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
	// TaskManagers and SlotsPerTaskManager size this deployment's Flink
	// cluster (its JobManager's TaskManagers and their slots): Flink facts
	// are per deployment, HDFS facts per cluster block.
	TaskManagers        *int
	SlotsPerTaskManager *int
	// CheckpointP99 is the observed p99 checkpoint duration.
	CheckpointP99 *time.Duration
	// CheckpointSize is the observed p99 checkpointed size in bytes.
	CheckpointSize *int64
	// StateSize is the checkpointed state of the job's largest subtask in
	// bytes (the Flink REST API's per-subtask state_size of a completed
	// checkpoint, /jobs/<id>/checkpoints/details/<cid>/subtasks/<vertex>).
	StateSize *int64
	// CheckpointFailed is the observed number of failed checkpoints.
	CheckpointFailed *int64
	// Running is the checkpoint configuration of the running job, nil when
	// there is no running_checkpointing block.
	Running *RunningCheckpointing
	// Facts are the facts blocks: where and when attributes were observed.
	Facts []Facts
	// DefRange is the range of the block header, `deployment "name"`.
	DefRange hcl.Range
	// ClusterRange is the range of the cluster attribute's value, for
	// diagnostics about the reference.
	ClusterRange hcl.Range
}

// Facts is one facts "KIND" block: the source and time the listed
// attributes of the enclosing cluster or deployment block were observed.
type Facts struct {
	// Kind is the block label, one of FactKinds.
	Kind string
	// Source is the URL or file name the values were read from.
	Source string
	// ObservedAt is when they were read, in UTC.
	ObservedAt time.Time
	// Attributes names the attributes of the enclosing block the facts
	// supplied (a nested block such as running_checkpointing by its type).
	Attributes []string
	// DefRange is the range of the block header, `facts "kind"`.
	DefRange hcl.Range
}

// FactKinds are the facts block labels: the kinds of source `ckptlint
// facts` reads (docs/facts.md).
var FactKinds = []string{"namenode", "dfsadmin", "jobmanager", "kubectl", "log"}

// DefaultFactsMaxAge is the age after which facts are stale when
// facts_max_age is unset.
const DefaultFactsMaxAge = 30 * 24 * time.Hour

// MaxFactsAge returns facts_max_age, or DefaultFactsMaxAge when unset.
func (c *Config) MaxFactsAge() time.Duration {
	if c == nil || c.FactsMaxAge == nil {
		return DefaultFactsMaxAge
	}
	return *c.FactsMaxAge
}

// RunningCheckpointing is a running_checkpointing block: the checkpoint
// configuration the running job reports (Flink REST
// /jobs/:jobid/checkpoints/config, CheckpointConfigInfo). A nil field was
// not written.
type RunningCheckpointing struct {
	// JobID is the job's id, "" when unset.
	JobID string
	// Interval, Timeout and MinPause are the checkpoint interval, timeout
	// and minimum pause between checkpoints.
	Interval, Timeout, MinPause *time.Duration
	// MaxConcurrent is the maximum number of concurrent checkpoints.
	MaxConcurrent *int
	// TolerableFailures is the number of tolerable checkpoint failures.
	TolerableFailures *int
	// Unaligned is whether unaligned checkpoints are enabled.
	Unaligned *bool
	// DefRange is the range of the block header.
	DefRange hcl.Range
}

// FactsFor returns the facts block that lists attr, or nil. When several
// do, the last one wins, as the last written.
func FactsFor(facts []Facts, attr string) *Facts {
	for i := len(facts) - 1; i >= 0; i-- {
		for _, a := range facts[i].Attributes {
			if a == attr {
				return &facts[i]
			}
		}
	}
	return nil
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

// FlinkSize is a deployment's Flink cluster size: the TaskManagers and slots
// its deployment block declares, else (the old place) those of the cluster
// block it runs on. from names the block each came from, `deployment
// "orders"` or `cluster "prod"`, "" when unset. dep may be nil (a config set
// no deployment block names), cl nil (no cluster).
type FlinkSize struct {
	TaskManagers, SlotsPerTaskManager         *int
	TaskManagersFrom, SlotsPerTaskManagerFrom string
	// TaskManagersFacts and SlotsFacts are the facts blocks that supplied
	// each value, nil when typed by hand.
	TaskManagersFacts, SlotsFacts *Facts
}

// SizeOf resolves a deployment's FlinkSize from its block and its cluster's.
func SizeOf(dep *Deployment, cl *Cluster) FlinkSize {
	var s FlinkSize
	pick := func(own, old *int, attr string) (*int, string, *Facts) {
		switch {
		case dep != nil && own != nil:
			return own, fmt.Sprintf("deployment %q", dep.Name), FactsFor(dep.Facts, attr)
		case cl != nil && old != nil:
			return old, fmt.Sprintf("cluster %q", cl.Name), FactsFor(cl.Facts, attr)
		}
		return nil, "", nil
	}
	var ownTM, ownSlots, oldTM, oldSlots *int
	if dep != nil {
		ownTM, ownSlots = dep.TaskManagers, dep.SlotsPerTaskManager
	}
	if cl != nil {
		oldTM, oldSlots = cl.TaskManagers, cl.SlotsPerTaskManager
	}
	s.TaskManagers, s.TaskManagersFrom, s.TaskManagersFacts = pick(ownTM, oldTM, "taskmanagers")
	s.SlotsPerTaskManager, s.SlotsPerTaskManagerFrom, s.SlotsFacts = pick(ownSlots, oldSlots, "slots_per_taskmanager")
	return s
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
