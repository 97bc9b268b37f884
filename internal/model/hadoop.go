package model

import (
	"fmt"
	"strings"
	"time"

	"github.com/ckptlint/ckptlint/internal/format/hadoopxml"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/units"
)

// hadoopType is how Hadoop's Configuration getter reads a key (Hadoop 3.4.1
// Configuration.java getInt/getLong/getLongBytes/getBoolean/getTimeDuration).
type hadoopType int

const (
	hBytes   hadoopType = iota // getLongBytes
	hLong                      // getLong / getInt
	hBool                      // getBoolean: invalid → default with WARN
	hSeconds                   // getTimeDuration(…, SECONDS); value in ms
	hMillis                    // getTimeDuration(…, MILLISECONDS); value in ms
	hString
)

// hadoopKey is one effective Hadoop setting.
type hadoopKey struct {
	Field   string // "<section>.<name>" in input.effective
	Key     string
	Type    hadoopType
	Default any // the default of Hadoop 3.4.1, the newest release the table covers
	// Cluster is true for NameNode/DataNode keys read from the cluster's
	// hdfs-site.xml; false for client keys read by Flink's HDFS client.
	Cluster bool
	// Older are the defaults of the releases before a change of the
	// default, newest first: before Until, Default was Value.
	Older []olderDefault
}

// olderDefault is a default a Hadoop release line had before Until.
type olderDefault struct {
	Until Version
	Value any
	Ref   string // the JIRA that changed it, from the Hadoop release notes
	Text  string // "1048576 in 2.1 to 2.x"
}

// HadoopTableFirst and HadoopTableLast are the Hadoop releases the Hadoop
// key table (hadoopKeys) covers. The key names are those of Hadoop 0.23/2.0
// (hadoop-common DeprecatedProperties; CKPT607 renames the 1.x ones), the
// NameNode's file limits came with 2.1.0-beta (HDFS-4305, "Add a
// configurable limit on number of blocks per file, and min block size",
// RELEASENOTES.2.1.0-beta.md), and the defaults are those of Hadoop 3.4.1's
// hdfs-default.xml, with the releases a default changed from (Older).
var (
	HadoopTableFirst = V(2, 1)
	HadoopTableLast  = V(3, 4)
)

// hadoopCovered reports whether r is a known Hadoop version the Hadoop key
// table covers.
func hadoopCovered(r Resolved) bool {
	l := r.Version.Line()
	return r.Known() && !l.Less(HadoopTableFirst) && !HadoopTableLast.Less(l)
}

// hadoopDefault is hk's default for the set's Hadoop version, and how it
// varies: for a known version outside the table, every change of the
// default; for a version that is not known, the changes within the table's
// releases (a version that is not known is taken to be one of them, as
// docs/versions.md says).
func hadoopDefault(hk hadoopKey, r Resolved) (any, string) {
	if len(hk.Older) == 0 {
		return hk.Default, ""
	}
	if !r.Known() && !HadoopTableFirst.Less(hk.Older[0].Until) {
		return hk.Default, "" // changed before the table's first release only
	}
	if hadoopCovered(r) {
		d := hk.Default
		for _, o := range hk.Older {
			if r.Version.Less(o.Until) {
				d = o.Value
			}
		}
		return d, ""
	}
	var parts []string
	for _, o := range hk.Older {
		parts = append(parts, fmt.Sprintf("%s (%s)", o.Text, o.Ref))
	}
	return hk.Default, fmt.Sprintf("%s from Hadoop %s; %s", hadoopDisplay(hk.Type, hk.Default), hk.Older[0].Until, strings.Join(parts, "; "))
}

// hadoopKeys: defaults from Hadoop 3.4.1 hdfs-default.xml (Older: the
// releases with another one); key constants from DFSConfigKeys.java and
// HdfsClientConfigKeys.java.
var hadoopKeys = []hadoopKey{
	// 64 MiB before HDFS-4053 ("Increase the default block size",
	// CHANGELOG.2.1.0-beta.md).
	{Field: "hdfs_client.blocksize", Key: "dfs.blocksize", Type: hBytes, Default: int64(128 << 20),
		Older: []olderDefault{{Until: V(2, 1), Value: int64(64 << 20), Ref: "HDFS-4053", Text: "64 MiB before 2.1"}}},
	{Field: "hdfs_client.bytes_per_checksum", Key: "dfs.bytes-per-checksum", Type: hLong, Default: int64(512)},
	{Field: "hdfs_client.replication", Key: "dfs.replication", Type: hLong, Default: int64(3)},
	{Field: "hdfs_client.replace_datanode_enable", Key: "dfs.client.block.write.replace-datanode-on-failure.enable", Type: hBool, Default: true},
	{Field: "hdfs_client.replace_datanode_policy", Key: "dfs.client.block.write.replace-datanode-on-failure.policy", Type: hString, Default: "DEFAULT"},
	{Field: "hdfs_client.replace_datanode_best_effort", Key: "dfs.client.block.write.replace-datanode-on-failure.best-effort", Type: hBool, Default: false},
	{Field: "hdfs_client.default_fs", Key: "fs.defaultFS", Type: hString, Default: "file:///"},
	// DfsClientConf reads both with Configuration.getInt, in milliseconds; the
	// defaults are HdfsConstants.READ_TIMEOUT (60 s) and WRITE_TIMEOUT (8 min);
	// 0 turns the timeout off.
	{Field: "hdfs_client.socket_timeout", Key: "dfs.client.socket-timeout", Type: hLong, Default: int64(60000)},
	{Field: "hdfs_client.socket_write_timeout", Key: "dfs.datanode.socket.write.timeout", Type: hLong, Default: int64(480000)},
	// HDFS-4305 (2.1.0-beta): no minimum before.
	{Field: "hdfs_cluster.min_block_size", Key: "dfs.namenode.fs-limits.min-block-size", Type: hBytes, Default: int64(1 << 20), Cluster: true,
		Older: []olderDefault{{Until: V(2, 1), Value: int64(0), Ref: "HDFS-4305", Text: "no minimum before 2.1"}}},
	{Field: "hdfs_cluster.blocksize", Key: "dfs.blocksize", Type: hBytes, Default: int64(128 << 20), Cluster: true, // the cluster files' dfs.blocksize, which Flink's client does not read (CKPT109)
		Older: []olderDefault{{Until: V(2, 1), Value: int64(64 << 20), Ref: "HDFS-4053", Text: "64 MiB before 2.1"}}},
	// HDFS-4305 (2.1.0-beta) added the limit at one million blocks,
	// HDFS-5517 ("Lower the default maximum number of blocks per file",
	// RELEASENOTES.3.0.0-alpha2.md: "reduced from 1M to 10K") lowered it in
	// 3.0; 2.x kept 1048576 (Hadoop 2.6.5's hdfs-default.xml).
	{Field: "hdfs_cluster.max_blocks_per_file", Key: "dfs.namenode.fs-limits.max-blocks-per-file", Type: hLong, Default: int64(10000), Cluster: true,
		Older: []olderDefault{{Until: V(3, 0), Value: int64(1048576), Ref: "HDFS-4305, HDFS-5517", Text: "1048576 in 2.1 to 2.x"}}},
	{Field: "hdfs_cluster.min_blocks_for_write", Key: "dfs.namenode.block-placement.min-blocks-for.write", Type: hLong, Default: int64(1), Cluster: true},
	{Field: "hdfs_cluster.replication_min", Key: "dfs.namenode.replication.min", Type: hLong, Default: int64(1), Cluster: true},
	{Field: "hdfs_cluster.replication_max", Key: "dfs.replication.max", Type: hLong, Default: int64(512), Cluster: true},
	{Field: "hdfs_cluster.directoryscan_interval", Key: "dfs.datanode.directoryscan.interval", Type: hSeconds, Default: int64(21600 * 1000), Cluster: true},
	{Field: "hdfs_cluster.directoryscan_throttle", Key: "dfs.datanode.directoryscan.throttle.limit.ms.per.sec", Type: hLong, Default: int64(1000), Cluster: true},
	{Field: "hdfs_cluster.directoryscan_threads", Key: "dfs.datanode.directoryscan.threads", Type: hLong, Default: int64(1), Cluster: true},
	{Field: "hdfs_cluster.reconcile_batch_size", Key: "dfs.datanode.reconcile.blocks.batch.size", Type: hLong, Default: int64(1000), Cluster: true},
	{Field: "hdfs_cluster.reconcile_batch_interval", Key: "dfs.datanode.reconcile.blocks.batch.interval", Type: hMillis, Default: int64(2000), Cluster: true},
}

func parseHadoop(t hadoopType, s string) (any, error) {
	switch t {
	case hBytes:
		return units.ParseHadoopBytes(s)
	case hLong:
		return units.ParseHadoopLong(s)
	case hBool:
		b, ok := units.ParseHadoopBool(s)
		if !ok {
			return nil, fmt.Errorf("Invalid value for boolean: %s (Hadoop uses the default)", s)
		}
		return b, nil
	case hSeconds, hMillis:
		unit := time.Second
		if t == hMillis {
			unit = time.Millisecond
		}
		d, err := units.ParseHadoopDuration(s, unit)
		if err != nil {
			return nil, err
		}
		return d.Milliseconds(), nil
	}
	return s, nil
}

func hadoopDisplay(t hadoopType, x any) string {
	switch t {
	case hBytes:
		if b, ok := x.(int64); ok {
			return units.FormatBytes(b)
		}
	case hSeconds, hMillis:
		if ms, ok := x.(int64); ok {
			return units.FormatDuration(time.Duration(ms) * time.Millisecond)
		}
	}
	if x == nil {
		return ""
	}
	return fmt.Sprint(x)
}

// layer is one source of Hadoop values in load order.
type layer struct {
	source string // "file", "flink.hadoop", "cluster-config"
	lookup func(key string) *parsed.Entry
	set    bool // values are Configuration.set() calls, not a resource
}

// resolveHadoop applies Hadoop's override rule over layers and then the
// default. A later resource wins unless an earlier one made the key final;
// Configuration.loadProperty adds a key to finalParameters even when its
// value is empty or missing, so a final definition without a value locks
// the key to no value (Hadoop's get() returns null and the getter's default
// applies) against every later resource (TestConfiguration.testFinalParam).
// Configuration.set() values win over every resource, final or not.
func resolveHadoop(hk hadoopKey, layers []layer, hv Resolved) *Value {
	var won *parsed.Entry
	src := ""
	for _, l := range layers {
		e := l.lookup(hk.Key)
		if e == nil {
			continue
		}
		// <final> stops later resources, not Configuration.set(): Flink's
		// flink.hadoop.* entries are set() into the overlay, which Hadoop
		// applies after every resource (Configuration.getProps).
		if won != nil && won.Final && !l.set {
			continue
		}
		if e.Kind == parsed.KindNull && !e.Final || e.Value == "" && e.Kind != parsed.KindString && e.Kind != parsed.KindNull {
			continue
		}
		won, src = e, l.source
	}
	def, varies := hadoopDefault(hk, hv)
	v := &Value{Source: "default", Value: def, Key: hk.Key}
	if won == nil {
		v.Varies = varies
	}
	switch {
	case won != nil && won.Kind == parsed.KindNull:
		// final with no value: Hadoop holds nothing, the default applies,
		// and the key stays locked.
		v.File, v.Loc, v.Final = won.File, entryLoc(won), true
	case won != nil:
		v.Raw, v.Source, v.File, v.Loc, v.Final = won.Value, src, won.File, entryLoc(won), won.Final
		x, err := parseHadoop(hk.Type, strings.TrimSpace(won.Value))
		// ${env.X} and JVM system properties such as ${user.name}: the
		// process decides (hadoopxml.Unknowns); likely is the text with
		// each ${env.X:-d} read as d, what Hadoop reads when X is unset.
		likely, why := hadoopxml.Unknowns(won.Value)
		if won.Unknown != "" {
			// an external entity: the value Hadoop uses is not known
			v.Template, v.Unknown, v.Value = true, won.Unknown, def
			if why != "" {
				v.Unknown += "; " + why
			}
		} else if why != "" {
			v.Template, v.Unknown, v.Value = true, why, def
			if y, err := parseHadoop(hk.Type, strings.TrimSpace(likely)); err == nil {
				v.Value = y
			}
		} else if len(won.Placeholders) > 0 {
			v.Template, v.Value = true, x
			if err != nil {
				v.Value = def
			}
		} else if err != nil {
			v.Error = err.Error()
			v.Value = def
		} else {
			v.Value = x
		}
	}
	v.Display = hadoopDisplay(hk.Type, v.Value)
	return v
}

func fileLayer(f *parsed.File) layer {
	return layer{source: "file", lookup: func(k string) *parsed.Entry {
		e := f.Lookup(k)
		if e != nil && e.Value == "" && !(e.Final && e.Kind == parsed.KindNull) {
			return nil // <value></value> means no value (Configuration.Parser drops an empty token)
		}
		return e
	}}
}

// hadoopEffective resolves the client and cluster views of a set.
func hadoopEffective(s *Set) map[string]*Value {
	var client []layer
	for _, r := range s.Client {
		client = append(client, fileLayer(r.File))
	}
	if s.FlinkVersion.Version.AtLeast(v1_13) {
		pt := hadoopPassthrough(s.Flink)
		client = append(client, layer{source: "flink.hadoop", set: true, lookup: func(k string) *parsed.Entry { return pt[k] }})
	}
	// Cluster keys: the cluster's hdfs-site.xml when given; otherwise a
	// client hdfs-site.xml that sets them (often the same file is shipped to
	// both); then facts declared in .ckptlint.hcl.
	var cluster []layer
	for _, r := range s.Client {
		if r.File.Format == parsed.HadoopHDFSSite {
			cluster = append(cluster, fileLayer(r.File))
		}
	}
	if s.ClusterHDFS != nil {
		cluster = append(cluster, fileLayer(s.ClusterHDFS))
	}
	out := map[string]*Value{}
	for _, hk := range hadoopKeys {
		layers := client
		if hk.Cluster {
			layers = cluster
		}
		v := resolveHadoop(hk, layers, s.HadoopVersion)
		if hk.Field == "hdfs_cluster.min_block_size" && v.Source == "default" && s.Cluster != nil && s.Cluster.MinBlockSize != nil {
			v.Value, v.Source, v.Varies = *s.Cluster.MinBlockSize, "cluster-config", ""
			v.Display = hadoopDisplay(hBytes, v.Value)
		}
		out[hk.Field] = v
	}
	return out
}

// ClientRaw is Configuration.getRaw over the client configuration Flink's
// HDFS client builds for s, which Hadoop's ${var} substitution reads
// (Configuration.substituteVars; Hadoop 3.4.1 L1150-1218): for each key the
// raw, unsubstituted value Hadoop holds once s.Client is loaded in Flink's
// order (a later resource wins unless an earlier one made the key final,
// and a final definition without a value keeps the value held so far:
// Configuration.loadProperty L3546-3568) and flink.hadoop.* is set() over
// it (Flink >= 1.13; Configuration.getProps applies the overlay last), with
// why it is unknown ("" when known). nil when no client file refers to
// another key (no "${" in any value).
func ClientRaw(s *Set) func(key string) (raw, unknown string, ok bool) {
	refers := false
	for _, r := range s.Client {
		if r.File == nil {
			continue
		}
		for i := range r.File.Entries {
			e := &r.File.Entries[i]
			if strings.Contains(e.Value, "${") || strings.Contains(e.Raw, "${") {
				refers = true
				break
			}
		}
	}
	if !refers {
		return nil
	}
	type held struct{ raw, unknown string }
	m := map[string]held{}
	final := map[string]bool{}
	for _, r := range s.Client {
		if r.File == nil {
			continue
		}
		for k, e := range r.File.Effective() {
			if final[k] {
				continue
			}
			if e.Kind != parsed.KindNull {
				raw := e.Value
				if e.Raw != "" {
					raw = e.Raw
				}
				m[k] = held{raw, e.Unknown}
			}
			if e.Final {
				final[k] = true
			}
		}
	}
	if s.FlinkVersion.Version.AtLeast(v1_13) {
		for k, e := range hadoopPassthrough(s.Flink) {
			if e.Kind != parsed.KindNull {
				m[k] = held{e.Value, ""}
			}
		}
	}
	return func(k string) (string, string, bool) {
		h, ok := m[k]
		return h.raw, h.unknown, ok
	}
}
