package config

import "github.com/hashicorp/hcl/v2"

// The raw* structs are the gohcl schema of the file. Attributes that need
// more than a type check (sizes, durations, lists checked per element) are
// kept as expressions and converted in convert.go; the *Range fields carry
// value ranges for diagnostics.

type rawConfig struct {
	FlinkVersion       *string         `hcl:"flink_version,optional"`
	FlinkVersionRange  hcl.Range       `hcl:"flink_version,attr_value_range"`
	HadoopVersion      *string         `hcl:"hadoop_version,optional"`
	HadoopVersionRange hcl.Range       `hcl:"hadoop_version,attr_value_range"`
	PolicyDirs         hcl.Expression  `hcl:"policy_dirs,optional"`
	Ignore             hcl.Expression  `hcl:"ignore,optional"`
	PathMappings       hcl.Expression  `hcl:"path_mappings,optional"`
	Placeholders       *string         `hcl:"placeholders,optional"`
	PlaceholdersRange  hcl.Range       `hcl:"placeholders,attr_value_range"`
	FactsMaxAge        hcl.Expression  `hcl:"facts_max_age,optional"`
	Clusters           []rawCluster    `hcl:"cluster,block"`
	Deployments        []rawDeployment `hcl:"deployment,block"`
	Rules              []rawRule       `hcl:"rule,block"`
}

type rawCluster struct {
	Name               string         `hcl:"name,label"`
	Datanodes          hcl.Expression `hcl:"datanodes,optional"`
	DatanodeFreeBytes  hcl.Expression `hcl:"datanode_free_bytes,optional"`
	DatanodeBlocks     hcl.Expression `hcl:"datanode_blocks,optional"`
	TaskManagers       hcl.Expression `hcl:"taskmanagers,optional"`
	Slots              hcl.Expression `hcl:"slots_per_taskmanager,optional"`
	HadoopVersion      *string        `hcl:"hadoop_version,optional"`
	HadoopVersionRange hcl.Range      `hcl:"hadoop_version,attr_value_range"`
	MinBlockSize       hcl.Expression `hcl:"min_block_size,optional"`
	WriteStall         hcl.Expression `hcl:"write_stall,optional"`
	OtherWriters       hcl.Expression `hcl:"other_writers,optional"`
	BlocksScheduled    hcl.Expression `hcl:"datanode_blocks_scheduled,optional"`
	DNVersion          *string        `hcl:"datanode_hadoop_version,optional"`
	DNVersionRange     hcl.Range      `hcl:"datanode_hadoop_version,attr_value_range"`
	Facts              []rawFacts     `hcl:"facts,block"`
	DefRange           hcl.Range      `hcl:",def_range"`
}

type rawDeployment struct {
	Name                 string         `hcl:"name,label"`
	FlinkConf            string         `hcl:"flink_conf"`
	FlinkConfRange       hcl.Range      `hcl:"flink_conf,attr_value_range"`
	HadoopConf           *string        `hcl:"hadoop_conf,optional"`
	HadoopConfRange      hcl.Range      `hcl:"hadoop_conf,attr_value_range"`
	ClusterHDFSSite      *string        `hcl:"cluster_hdfs_site,optional"`
	ClusterHDFSSiteRange hcl.Range      `hcl:"cluster_hdfs_site,attr_value_range"`
	Cluster              *string        `hcl:"cluster,optional"`
	ClusterRange         hcl.Range      `hcl:"cluster,attr_value_range"`
	FlinkVersion         *string        `hcl:"flink_version,optional"`
	FlinkVersionRange    hcl.Range      `hcl:"flink_version,attr_value_range"`
	Jobs                 hcl.Expression `hcl:"jobs,optional"`
	StatefulOperators    hcl.Expression `hcl:"stateful_operators,optional"`
	Parallelism          hcl.Expression `hcl:"parallelism,optional"`
	TaskManagers         hcl.Expression `hcl:"taskmanagers,optional"`
	Slots                hcl.Expression `hcl:"slots_per_taskmanager,optional"`
	CheckpointP99        hcl.Expression `hcl:"checkpoint_p99,optional"`
	CheckpointSize       hcl.Expression `hcl:"checkpoint_size,optional"`
	StateSize            hcl.Expression `hcl:"state_size,optional"`
	CheckpointFailed     hcl.Expression `hcl:"checkpoint_failed,optional"`
	Running              []rawRunning   `hcl:"running_checkpointing,block"`
	Facts                []rawFacts     `hcl:"facts,block"`
	DefRange             hcl.Range      `hcl:",def_range"`
}

// rawFacts is a facts "KIND" block: where the values named in attributes
// were observed, and when (written by `ckptlint facts`).
type rawFacts struct {
	Kind            string         `hcl:"kind,label"`
	KindRange       hcl.Range      `hcl:"kind,label_range"`
	Source          string         `hcl:"source"`
	SourceRange     hcl.Range      `hcl:"source,attr_value_range"`
	ObservedAt      string         `hcl:"observed_at"`
	ObservedAtRange hcl.Range      `hcl:"observed_at,attr_value_range"`
	Attributes      hcl.Expression `hcl:"attributes"`
	DefRange        hcl.Range      `hcl:",def_range"`
}

// rawRunning is a running_checkpointing block: the checkpoint settings of
// the running job, as its JobManager reports them.
type rawRunning struct {
	JobID             *string        `hcl:"job_id,optional"`
	JobIDRange        hcl.Range      `hcl:"job_id,attr_value_range"`
	Interval          hcl.Expression `hcl:"interval,optional"`
	Timeout           hcl.Expression `hcl:"timeout,optional"`
	MinPause          hcl.Expression `hcl:"min_pause,optional"`
	MaxConcurrent     hcl.Expression `hcl:"max_concurrent,optional"`
	TolerableFailures hcl.Expression `hcl:"tolerable_failures,optional"`
	Unaligned         *bool          `hcl:"unaligned,optional"`
	DefRange          hcl.Range      `hcl:",def_range"`
}

type rawRule struct {
	ID            string    `hcl:"id,label"`
	IDRange       hcl.Range `hcl:"id,label_range"`
	Enabled       *bool     `hcl:"enabled,optional"`
	Severity      *string   `hcl:"severity,optional"`
	SeverityRange hcl.Range `hcl:"severity,attr_value_range"`
	DefRange      hcl.Range `hcl:",def_range"`
}
