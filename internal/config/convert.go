package config

import (
	"path"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// convert fills cfg from the decoded raw file, checking every value.
func (k *checker) convert(raw *rawConfig, cfg *Config) {
	cfg.FlinkVersion = k.version("flink_version", raw.FlinkVersion, raw.FlinkVersionRange)
	cfg.HadoopVersion = k.version("hadoop_version", raw.HadoopVersion, raw.HadoopVersionRange)
	cfg.PolicyDirs = k.policyDirs(raw.PolicyDirs)
	cfg.Ignore = k.ignore(raw.Ignore)
	cfg.PathMappings = k.pathMappings(raw.PathMappings)
	cfg.Placeholders = k.placeholders(raw.Placeholders, raw.PlaceholdersRange)
	cfg.FactsMaxAge = k.maxAge(raw.FactsMaxAge)
	for _, rc := range raw.Clusters {
		cfg.Clusters = append(cfg.Clusters, k.cluster(rc))
	}
	for _, rd := range raw.Deployments {
		cfg.Deployments = append(cfg.Deployments, k.deployment(rd))
	}
	for _, rr := range raw.Rules {
		cfg.Rules = append(cfg.Rules, k.rule(rr))
	}
}

func (k *checker) cluster(rc rawCluster) Cluster {
	c := Cluster{
		Name:                    rc.Name,
		Datanodes:               k.count("datanodes", rc.Datanodes, 1),
		DatanodeFreeBytes:       k.size("datanode_free_bytes", rc.DatanodeFreeBytes),
		DatanodeBlocks:          k.count64("datanode_blocks", rc.DatanodeBlocks, 0),
		TaskManagers:            k.count("taskmanagers", rc.TaskManagers, 1),
		SlotsPerTaskManager:     k.count("slots_per_taskmanager", rc.Slots, 1),
		HadoopVersion:           k.version("hadoop_version", rc.HadoopVersion, rc.HadoopVersionRange),
		MinBlockSize:            k.size("min_block_size", rc.MinBlockSize),
		WriteStall:              k.duration("write_stall", rc.WriteStall),
		OtherWriters:            k.count("other_writers", rc.OtherWriters, 0),
		DatanodeBlocksScheduled: k.count64("datanode_blocks_scheduled", rc.BlocksScheduled, 0),
		DatanodeHadoopVersion:   k.version("datanode_hadoop_version", rc.DNVersion, rc.DNVersionRange),
		DefRange:                rc.DefRange,
	}
	set := map[string]bool{
		"datanodes": isSet(rc.Datanodes), "datanode_free_bytes": isSet(rc.DatanodeFreeBytes),
		"datanode_blocks": isSet(rc.DatanodeBlocks), "datanode_blocks_scheduled": isSet(rc.BlocksScheduled),
		"datanode_hadoop_version": rc.DNVersion != nil, "taskmanagers": isSet(rc.TaskManagers),
		"slots_per_taskmanager": isSet(rc.Slots), "hadoop_version": rc.HadoopVersion != nil,
		"min_block_size": isSet(rc.MinBlockSize), "write_stall": isSet(rc.WriteStall),
		"other_writers": isSet(rc.OtherWriters),
	}
	c.Facts = k.facts("cluster", rc.Facts, clusterFactAttrs, set)
	return c
}

func (k *checker) deployment(rd rawDeployment) Deployment {
	if rd.FlinkConfRange != (hcl.Range{}) { // unset: gohcl reports it missing
		k.str("flink_conf", &rd.FlinkConf, rd.FlinkConfRange)
	}
	d := Deployment{
		Name:                rd.Name,
		FlinkConf:           rd.FlinkConf,
		HadoopConf:          k.str("hadoop_conf", rd.HadoopConf, rd.HadoopConfRange),
		ClusterHDFSSite:     k.str("cluster_hdfs_site", rd.ClusterHDFSSite, rd.ClusterHDFSSiteRange),
		Cluster:             k.str("cluster", rd.Cluster, rd.ClusterRange),
		FlinkVersion:        k.version("flink_version", rd.FlinkVersion, rd.FlinkVersionRange),
		Jobs:                k.count("jobs", rd.Jobs, 1),
		StatefulOperators:   k.count("stateful_operators", rd.StatefulOperators, 1),
		Parallelism:         k.count("parallelism", rd.Parallelism, 1),
		TaskManagers:        k.count("taskmanagers", rd.TaskManagers, 1),
		SlotsPerTaskManager: k.count("slots_per_taskmanager", rd.Slots, 1),
		CheckpointP99:       k.duration("checkpoint_p99", rd.CheckpointP99),
		CheckpointSize:      k.size("checkpoint_size", rd.CheckpointSize),
		StateSize:           k.size("state_size", rd.StateSize),
		CheckpointFailed:    k.count64("checkpoint_failed", rd.CheckpointFailed, 0),
		DefRange:            rd.DefRange,
		ClusterRange:        rd.ClusterRange,
	}
	for i, rr := range rd.Running {
		if i > 0 {
			k.errorf(rr.DefRange, "Duplicate running_checkpointing block",
				"A deployment holds at most one running_checkpointing block; the first is at %s.", rd.Running[0].DefRange.String())
			continue
		}
		d.Running = k.running(rr)
	}
	set := map[string]bool{
		"flink_version": rd.FlinkVersion != nil, "jobs": isSet(rd.Jobs),
		"stateful_operators": isSet(rd.StatefulOperators), "parallelism": isSet(rd.Parallelism),
		"checkpoint_p99": isSet(rd.CheckpointP99), "checkpoint_size": isSet(rd.CheckpointSize),
		"checkpoint_failed": isSet(rd.CheckpointFailed), "running_checkpointing": len(rd.Running) > 0,
		"taskmanagers": isSet(rd.TaskManagers), "slots_per_taskmanager": isSet(rd.Slots),
		"state_size": isSet(rd.StateSize),
	}
	d.Facts = k.facts("deployment", rd.Facts, deploymentFactAttrs, set)
	return d
}

// severities are the values a rule block's severity may take.
var severities = []string{"error", "warning", "info"}

func (k *checker) rule(rr rawRule) Rule {
	r := Rule{ID: rr.ID, Enabled: rr.Enabled, DefRange: rr.DefRange, IDRange: rr.IDRange}
	if rr.Severity == nil {
		return r
	}
	s := *rr.Severity
	for _, ok := range severities {
		if s == ok {
			r.Severity = s
			return r
		}
	}
	k.errorf(rr.SeverityRange, "Invalid severity",
		"The severity %q is not one of %q, %q or %q.%s",
		s, severities[0], severities[1], severities[2], didYouMean(s, severities))
	return r
}

func (k *checker) policyDirs(expr hcl.Expression) []string {
	dirs, ranges := k.strings(expr)
	for i, d := range dirs {
		if d == "" {
			k.errorf(ranges[i], "Empty value", "A policy directory must not be empty.")
		}
	}
	return dirs
}

func (k *checker) ignore(expr hcl.Expression) []string {
	pats, ranges := k.strings(expr)
	for i, p := range pats {
		if err := checkPattern(p); err != nil {
			k.errorf(ranges[i], "Invalid glob pattern", "The ignore pattern %q is not valid: %v.", p, err)
		}
	}
	return pats
}

func (k *checker) pathMappings(expr hcl.Expression) map[string]string {
	m, ranges := k.stringMap(expr)
	for _, from := range sortedKeys(m) {
		to := m[from]
		switch {
		case !strings.HasPrefix(from, "/"):
			k.errorf(ranges[from], "Invalid path mapping",
				"The mapped path %q must be absolute, such as %q: it is a path as written in a Flink or Hadoop config.",
				from, "/etc/hadoop/conf")
		case to == "":
			k.errorf(ranges[from], "Invalid path mapping",
				"The path %q is mapped to an empty directory; use %q for the configuration file's directory.", from, ".")
		case path.IsAbs(to) || strings.HasPrefix(to, `\`) || hasDrive(to):
			k.errorf(ranges[from], "Invalid path mapping",
				"The path %q is mapped to %q, which must be a directory relative to the configuration file's directory.",
				from, to)
		}
	}
	return m
}

// hasDrive reports a Windows drive prefix such as "C:".
func hasDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}

// placeholders checks the placeholders attribute: "detect" or "literal".
func (k *checker) placeholders(v *string, rng hcl.Range) string {
	if v == nil {
		return ""
	}
	switch *v {
	case "detect", "literal":
		return *v
	}
	k.errorf(rng, "Invalid placeholders mode",
		"placeholders is %q; write \"detect\" (template placeholders are unknown values, the default) or \"literal\" (the files are rendered output).", *v)
	return ""
}
