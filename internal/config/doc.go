// Package config loads .ckptlint.hcl, the optional file that tells ckptlint
// what it cannot read from the configuration files themselves: the cluster
// the job runs on, which Flink file goes with which Hadoop files, and how
// each rule is set.
//
// # Finding the file
//
// The CLI uses, in this order: the file named by the --config flag;
// .ckptlint.hcl in the working directory or its nearest parent, not above
// the repository root (Find); else no file (all defaults). Relative paths in
// the file are relative to the file's directory, whichever way it was found.
//
// # Example
//
//	# Declared versions, when the files do not tell (major.minor[.patch]).
//	flink_version  = "1.20"
//	hadoop_version = "3.1.0"
//
//	# Extra Rego policy directories.
//	policy_dirs = ["policies/custom"]
//
//	# Paths never linted. A segment "**" matches any number of directories;
//	# a directory that matches ignores everything below it.
//	ignore = ["legacy/**", "**/test/**"]
//
//	# An absolute directory named in a config (fs.hdfs.hadoopconf,
//	# env.hadoop.conf.dir) → the repository directory holding its files.
//	path_mappings = {
//	  "/etc/hadoop/conf" = "hadoop/conf"
//	}
//
//	# Template placeholders (${VAR}, {{ .Values.x }}, <%= x %>, @VAR@, ...):
//	# "detect" (the default) reads them as unknown values; "literal" reads them
//	# as text, for rendered output. --placeholders overrides it (docs/templates.md).
//	placeholders = "detect"
//
//	# Facts about an HDFS cluster; rules use them for capacity and risk numbers.
//	cluster "prod" {
//	  datanodes             = 3
//	  datanode_free_bytes   = "43g"      # per DataNode: bytes, or a size such as "43g"
//	  datanode_blocks       = 200000000  # block replicas per DataNode
//	  hadoop_version        = "3.1.0"    # overrides the top-level hadoop_version
//	  min_block_size        = "1m"       # NameNode dfs.namenode.fs-limits.min-block-size
//	  write_stall           = "40s"      # observed worst HDFS write stall
//	  other_writers         = 0          # other concurrent HDFS writers per DataNode
//
//	  # Observed by `ckptlint facts` (docs/facts.md), or by hand.
//	  datanode_blocks_scheduled = 312        # most blocks scheduled on one DataNode
//	  datanode_hadoop_version   = "3.3.6"    # the DataNodes' own version
//	  facts "namenode" {
//	    source      = "http://nn:9870/jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo"
//	    observed_at = "2026-12-01T08:00:00Z" # RFC 3339
//	    attributes  = ["datanodes", "datanode_free_bytes", "datanode_blocks", "datanode_blocks_scheduled", "datanode_hadoop_version"]
//	  }
//	}
//
//	# Which files belong together, and how the jobs use them.
//	deployment "etl" {
//	  flink_conf         = "jobs/etl/conf"                # required: a Flink config file, its directory, or a FlinkDeployment manifest
//	  hadoop_conf        = "hadoop/client"                # directory of the client core-site.xml and hdfs-site.xml
//	  cluster_hdfs_site  = "hadoop/cluster/hdfs-site.xml" # the cluster's own hdfs-site.xml
//	  cluster            = "prod"                         # names a cluster block
//	  flink_version      = "1.17"                         # overrides the top-level flink_version
//	  jobs               = 4                              # jobs sharing the cluster with this config
//	  stateful_operators = 5                              # stateful operators per job
//	  parallelism        = 12                             # overrides parallelism.default
//	  taskmanagers          = 3                          # this Flink cluster's TaskManagers
//	  slots_per_taskmanager = 4                          # and task slots per TaskManager
//	  checkpoint_p99     = "90s"                          # observed p99 checkpoint duration
//	  checkpoint_size    = "2g"                           # observed p99 checkpointed size
//	  state_size         = "6g"                           # checkpointed state of the largest subtask
//	  checkpoint_failed  = 12                             # observed failed checkpoints
//
//	  # The checkpoint settings of the running job (Flink REST
//	  # /jobs/<id>/checkpoints/config); compared with flink_conf.
//	  running_checkpointing {
//	    job_id             = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
//	    interval           = "3m"
//	    timeout            = "10m"
//	    min_pause          = "0s"
//	    max_concurrent     = 1
//	    tolerable_failures = 0
//	    unaligned          = false
//	  }
//	  facts "jobmanager" {
//	    source      = "http://jm:8081/jobs/a1b2c3d4e5f60718293a4b5c6d7e8f90/checkpoints"
//	    observed_at = "2026-12-01T08:00:00Z"
//	    attributes  = ["checkpoint_p99", "checkpoint_size", "checkpoint_failed", "running_checkpointing"]
//	  }
//	}
//
//	# Facts observed longer ago are reported stale (CKPT609); default "30d".
//	facts_max_age = "30d"
//
//	# Rule settings.
//	rule "CKPT101" {
//	  enabled  = true
//	  severity = "warning"   # error | warning | info
//	}
//
// Every attribute is optional except flink_conf in a deployment block.
// Blocks must be written over several lines: HCL allows only one argument in
// a single-line block.
//
// # Values
//
//   - Versions are "major.minor" or "major.minor.patch".
//   - Sizes (datanode_free_bytes, min_block_size) are a whole number of bytes
//     or a string in Flink's memory-size syntax: digits, optional space, and
//     one of b, k, m, g, t (also kb, mb, …, case-insensitive, powers of 1024).
//   - Durations (write_stall, checkpoint_p99) are strings in Flink's duration
//     syntax: digits and a unit ns, µs, ms, s, min or m (minutes), h, d. A
//     string without a unit means milliseconds, as in Flink; a bare number is
//     refused.
//   - Counts must be at least 1, except datanode_blocks, other_writers,
//     datanode_blocks_scheduled, checkpoint_failed and tolerable_failures,
//     which may be 0.
//   - checkpoint_size and state_size are sizes; state_size is the
//     checkpointed state of the job's largest subtask (docs/config.md).
//   - A facts "KIND" block (KIND namenode, dfsadmin, jobmanager, kubectl or log)
//     names the source, the RFC 3339 observed_at time and the attributes of
//     the enclosing block it supplied; each must be set in that block and
//     listed by one facts block only (docs/config.md).
//   - path_mappings keys are absolute; values are relative directories.
//
// # Errors
//
// Load reports syntax errors, unknown attributes and blocks (with hcl's "Did
// you mean" suggestion), wrong types and bad values. Validate adds unknown
// rule ids (suggesting the nearest), deployment references to undefined
// clusters, duplicate cluster, deployment or rule blocks, and Flink facts
// `ckptlint facts` wrote into a cluster block two or more deployments use
// (taskmanagers and slots_per_taskmanager belong in the deployment block of
// their Flink cluster; a cluster block's are still read for the deployments
// that declare none). Diagnostics.Write renders them with source snippets:
//
//	Error: Unknown rule
//
//	  on .ckptlint.hcl line 20, in rule "CKPT11":
//	  20: rule "CKPT11" {
//
//	There is no rule with the id "CKPT11". Did you mean "CKPT101"?
package config
