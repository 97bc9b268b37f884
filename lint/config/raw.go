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
	CheckpointP99        hcl.Expression `hcl:"checkpoint_p99,optional"`
	DefRange             hcl.Range      `hcl:",def_range"`
}

type rawRule struct {
	ID            string    `hcl:"id,label"`
	IDRange       hcl.Range `hcl:"id,label_range"`
	Enabled       *bool     `hcl:"enabled,optional"`
	Severity      *string   `hcl:"severity,optional"`
	SeverityRange hcl.Range `hcl:"severity,attr_value_range"`
	DefRange      hcl.Range `hcl:",def_range"`
}
