package generate

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/beevik/etree"
	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/lint/config"
	"github.com/ckptlint/ckptlint/lint/model"
	"github.com/ckptlint/ckptlint/lint/units"
)

// LatestFlink and LatestHadoop are the versions a baseline is written for
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

// BaselineOptions select what NewBaseline generates for. Cluster may be
// empty when the deployment names one or the file declares exactly one;
// the versions override .ckptlint.hcl, as the global flags do in lint.
type BaselineOptions struct {
	Config                      *config.Config
	Cluster, Deployment         string
	FlinkVersion, HadoopVersion string
}

// BaselineFile is one generated file, its path relative to the output
// directory (slash-separated) and what it is for.
type BaselineFile struct {
	Path    string
	Role    string
	Content []byte
}

// Baseline is a complete generated config set and the notes a person must
// read before deploying it (assumed versions, compromises, placeholders).
type Baseline struct {
	Cluster, Deployment string
	Flink, Hadoop       string // versions as used, with where they came from
	Files               []BaselineFile
	Notes               []string
}

// setting is one generated value and the reason for it.
type setting struct {
	key, value, tag, why string // tag: YAML tag of a Flink value (!!int, !!bool, !!str)
}

// plan holds the resolved facts a baseline is computed from.
type plan struct {
	cl                    *config.Cluster
	dep                   *config.Deployment
	flink, hadoop         model.Version
	flinkText, hadoopText string // "Flink 1.13", "Hadoop 2.7.3"
	flinkFrom, hadoopFrom string // where each version came from
	par, parCounted       int    // parallelism written, and the one lint counts files with
	parWhy                string
	notes                 []string
}

// NewBaseline computes a baseline config set for a declared cluster (and
// optionally deployment): the Flink configuration in the file format the
// Flink version reads, the hdfs-site.xml for Flink's HDFS client and a
// DataNode hdfs-site.xml snippet, every value commented with its reason.
func NewBaseline(opts BaselineOptions) (*Baseline, error) {
	p, err := newPlan(opts)
	if err != nil {
		return nil, err
	}
	b := &Baseline{Cluster: p.cl.Name, Flink: p.flinkText + " (" + p.flinkFrom + ")", Hadoop: p.hadoopText + " (" + p.hadoopFrom + ")"}
	if p.dep != nil {
		b.Deployment = p.dep.Name
	}
	flinkName, flinkRole := "config.yaml", "Flink configuration (standard YAML)"
	if !p.flink.AtLeast(model.V(1, 19)) {
		flinkName, flinkRole = "flink-conf.yaml", "Flink configuration (legacy flat format)"
	}
	fs, client, dn := p.flinkSettings(), p.clientSettings(), p.datanodeSettings()
	b.Files = []BaselineFile{
		{Path: flinkName, Role: flinkRole, Content: p.flinkFile(flinkName, fs)},
		{Path: "hdfs-site.xml", Role: "HDFS client settings for Flink (HADOOP_CONF_DIR)", Content: hadoopXML(p.clientHeader(), client)},
		{Path: "datanode/hdfs-site.xml", Role: "properties to merge into every DataNode's hdfs-site.xml", Content: hadoopXML(p.datanodeHeader(), dn)},
	}
	b.Notes = append(p.notes, fmt.Sprintf("adjust the checkpoint and savepoint directories in %s: hdfs:/// takes the NameNode from fs.defaultFS in the core-site.xml Flink's HDFS client reads", flinkName))
	return b, nil
}

func newPlan(opts BaselineOptions) (*plan, error) {
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
func (p *plan) parallelism() (write, counted int, why string) {
	declared := p.depInt(func(d *config.Deployment) *int { return d.Parallelism })
	tms, slots := p.cl.TaskManagers, p.cl.SlotsPerTaskManager
	fit, fitText := 0, ""
	if tms != nil && slots != nil {
		fit = *tms * *slots / p.jobs()
		fitText = fmt.Sprintf("%d TaskManagers x %d slots / %d job(s) = %d", *tms, *slots, p.jobs(), fit)
	}
	switch {
	case declared != nil && fit > 0 && *declared > fit:
		p.notes = append(p.notes, fmt.Sprintf("deployment %q declares parallelism %d, but cluster %q has slots for %d per job: parallelism.default is %d, and ckptlint lint reports the declared parallelism (CKPT401) until the cluster or the declaration changes", p.dep.Name, *declared, p.cl.Name, fit, fit))
		return fit, *declared, fmt.Sprintf("%d = %s, below the parallelism %d declared for deployment %q, which does not fit the cluster's task slots (CKPT401)", fit, fitText, *declared, p.dep.Name)
	case declared != nil && fit > 0:
		return *declared, *declared, fmt.Sprintf("%d = min(parallelism %d of deployment %q, %s): every job gets all its slots (CKPT401)", *declared, *declared, p.dep.Name, fitText)
	case declared != nil:
		return *declared, *declared, fmt.Sprintf("%d: parallelism of deployment %q (declare taskmanagers and slots_per_taskmanager for cluster %q to check it fits, CKPT401)", *declared, p.dep.Name, p.cl.Name)
	case fit > 0:
		return fit, fit, fmt.Sprintf("%d = %s: the widest parallelism at which every job gets all its slots (CKPT401)", fit, fitText)
	case tms != nil && slots != nil:
		p.notes = append(p.notes, fmt.Sprintf("cluster %q has fewer task slots (%s) than jobs: parallelism.default is 1", p.cl.Name, fitText))
		return 1, 1, fmt.Sprintf("1: %s, fewer slots than jobs (CKPT401)", fitText)
	}
	return 1, 1, fmt.Sprintf("1, Flink's default: no parallelism is declared for the deployment and no taskmanagers and slots_per_taskmanager for cluster %q", p.cl.Name)
}

// flinkKey is the spelling of a key that the Flink version reads without a
// deprecation warning: newer from the version that renamed it.
func (p *plan) flinkKey(old, newer string, since model.Version) string {
	if p.flink.AtLeast(since) {
		return newer
	}
	return old
}

// timeout is at least Flink's default and 3x the worst declared duration.
func (p *plan) timeout() (time.Duration, string) {
	var need time.Duration
	what, so := "", ""
	if s := p.cl.WriteStall; s != nil && *s > need {
		need, what = *s, fmt.Sprintf("the %s HDFS write stall declared for cluster %q", units.FormatDuration(*s), p.cl.Name)
		so = "a checkpoint that meets a full stall still has time for its own writes (CKPT201, CKPT301)"
	}
	if p.dep != nil && p.dep.CheckpointP99 != nil && *p.dep.CheckpointP99 > need {
		need, what = *p.dep.CheckpointP99, fmt.Sprintf("the %s p99 checkpoint duration declared for deployment %q", units.FormatDuration(*p.dep.CheckpointP99), p.dep.Name)
		so = "the checkpoints slower than the p99 still complete (CKPT201)"
	}
	if need == 0 {
		return timeoutDefault, "10 min, Flink's default, written down: no write_stall or checkpoint_p99 is declared in .ckptlint.hcl to size it by"
	}
	if 3*need <= timeoutDefault {
		return timeoutDefault, fmt.Sprintf("10 min, Flink's default, written down: at least 3x %s, so %s", what, so)
	}
	t := roundDuration(3 * need)
	return t, fmt.Sprintf("%s, at least 3x %s, so %s", units.FlinkDurationString(t), what, so)
}

// roundDuration rounds d up to a duration a person would write (the ladder
// CKPT201 proposes from).
func roundDuration(d time.Duration) time.Duration {
	for _, r := range []time.Duration{15 * time.Minute, 20 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour} {
		if d <= r {
			return r
		}
	}
	return (d + time.Hour - 1) / time.Hour * time.Hour
}

func (p *plan) flinkSettings() []setting {
	timeout, timeoutWhy := p.timeout()
	v120 := model.V(1, 20)
	var ss []setting
	if s := p.cl.SlotsPerTaskManager; s != nil {
		ss = append(ss, setting{"taskmanager.numberOfTaskSlots", fmt.Sprint(*s), "!!int", fmt.Sprintf("%d: slots_per_taskmanager of cluster %q in .ckptlint.hcl", *s, p.cl.Name)})
	}
	dir := "hdfs:///flink/checkpoints/" + p.label()
	ss = append(ss,
		setting{"parallelism.default", fmt.Sprint(p.par), "!!int", p.parWhy},
		setting{"execution.checkpointing.interval", "1 min", "!!str", "1 min: a restart replays at most about a minute of input; with one checkpoint at a time and the min-pause below, a slow checkpoint delays the next one instead of overlapping it"},
		setting{"execution.checkpointing.timeout", units.FlinkDurationString(timeout), "!!str", timeoutWhy},
		setting{"execution.checkpointing.min-pause", "30 s", "!!str", "30 s: at least half a minute of processing between the end of one checkpoint and the start of the next, so slow checkpoints never run back to back"},
		setting{"execution.checkpointing.max-concurrent-checkpoints", "1", "!!int", "1, Flink's default, written down: a second checkpoint in flight on HDFS gets subsumed and its chk-N directory deleted while TaskManagers still write into it (CKPT204); one at a time also bounds the checkpoint files in flight that dfs.blocksize is sized for"},
		setting{"execution.checkpointing.tolerable-failed-checkpoints", "3", "!!int", "3: one expired or failed checkpoint (an HDFS write stall, a DataNode restart) does not restart the job; a checkpoint path that stays broken still fails it after 4 failures in a row (CKPT205)"},
		setting{"execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION", "!!str", "RETAIN_ON_CANCELLATION: a cancelled job keeps its last checkpoint to restart from (delete old ones yourself)"},
		setting{p.flinkKey("state.backend", "state.backend.type", model.V(1, 17)), "rocksdb", "!!str", "rocksdb: keyed state lives on the TaskManagers' local disks rather than their heap, and it is the backend with incremental checkpoints"},
		setting{p.flinkKey("state.backend.incremental", "execution.checkpointing.incremental", v120), "true", "!!bool", "true: each checkpoint uploads only the RocksDB files written since the previous one, not the whole state (CKPT505)"},
		setting{p.flinkKey("state.checkpoints.dir", "execution.checkpointing.dir", v120), dir, "!!str", "PLACEHOLDER, adjust it: hdfs:/// takes the NameNode from fs.defaultFS in the core-site.xml Flink's HDFS client reads; write hdfs://<namenode>:8020/... or your HA nameservice instead. One directory per deployment; Flink adds a <job-id> subdirectory per job"},
		setting{p.flinkKey("state.savepoints.dir", "execution.checkpointing.savepoint-dir", v120), "hdfs:///flink/savepoints/" + p.label(), "!!str", "PLACEHOLDER, adjust it like the checkpoint directory"},
		setting{p.flinkKey("state.checkpoints.num-retained", "execution.checkpointing.num-retained", v120), "3", "!!int", "3: a restore can fall back two checkpoints, and one in CLAIM mode still leaves a snapshot to roll back to (CKPT507); incremental checkpoints share their unchanged files, so the extra space is small"},
	)
	return ss
}

// files is the count of checkpoint files in flight per DataNode as CKPT101
// counts it, with the arithmetic.
func (p *plan) filesPerDataNode(replication int) (int64, string) {
	par := p.parCounted
	files := int64(p.jobs() * par * p.operators())
	dn := int64(*p.cl.Datanodes)
	per := (files*int64(replication)+dn-1)/dn + int64(intOr(p.cl.OtherWriters, 0))
	text := fmt.Sprintf("%d job(s) x parallelism %d x %d stateful operator(s) x 1 concurrent checkpoint = %d files, x %d replica(s) over %d DataNodes", p.jobs(), par, p.operators(), files, replication, dn)
	if o := intOr(p.cl.OtherWriters, 0); o > 0 {
		text += fmt.Sprintf(", + %d other writers", o)
	}
	return per, text
}

func (p *plan) replication() int {
	if p.cl.Datanodes != nil {
		return min(3, *p.cl.Datanodes)
	}
	return 3
}

// blocksize picks dfs.blocksize (see docs/generate.md): the smallest whole
// MiB (>= the NameNode minimum; a MiB is a multiple of the 512-byte
// checksum chunk) that keeps 16 GiB per file (CKPT105), provided each
// DataNode can still schedule headroom x the checkpoint files in flight
// (CKPT101); when both cannot hold, CKPT101 wins.
func (p *plan) blocksize() (int64, string) {
	minBlock, minFrom := mib, "the NameNode's default minimum"
	if p.cl.MinBlockSize != nil {
		minBlock, minFrom = *p.cl.MinBlockSize, "min_block_size in .ckptlint.hcl"
	}
	floor := roundUp(max(minBlock, mib), mib)
	lower := max(floor, roundUp((fileCap+maxBlocksPerFile-1)/maxBlocksPerFile, mib))
	capText := func(bs int64) string {
		return fmt.Sprintf("%s x %d blocks per file (the dfs.namenode.fs-limits.max-blocks-per-file default) = %s", units.FormatBytes(bs), maxBlocksPerFile, units.FormatBytes(bs*maxBlocksPerFile))
	}
	if p.cl.Datanodes == nil || p.cl.DatanodeFreeBytes == nil {
		return lower, fmt.Sprintf("%s: the smallest whole MiB (at least %s, %s) that lets one file reach 16 GiB: %s, so a savepoint or full checkpoint of a large subtask still fits (CKPT105). Declare datanodes and datanode_free_bytes for cluster %q so the DataNodes' scheduled space can be checked (CKPT101)",
			units.HadoopBytesString(lower), units.FormatBytes(minBlock), minFrom, capText(lower), p.cl.Name)
	}
	free := *p.cl.DatanodeFreeBytes
	per, arith := p.filesPerDataNode(p.replication())
	capacity := func(bs int64) int64 { return free/bs - minBlocksForWrite + 1 }
	sched := func(bs int64) string {
		return fmt.Sprintf("each DataNode can schedule %d blocks at once (%s free / %s), %.1fx the about %d checkpoint files in flight per DataNode (%s)",
			capacity(bs), units.FormatBytes(free), units.FormatBytes(bs), float64(capacity(bs))/float64(per), per, arith)
	}
	upper := free / (headroom*per + minBlocksForWrite - 1) / mib * mib
	dflt := fmt.Sprintf(". Hadoop's default 128 MiB would let each DataNode schedule only %d", capacity(hadoopDefaultBS))
	switch {
	case lower <= upper:
		return lower, fmt.Sprintf("%s: the smallest whole MiB that lets one file reach 16 GiB: %s (CKPT105); and %s, at least %dx is the aim (CKPT101)%s",
			units.HadoopBytesString(lower), capText(lower), sched(lower), headroom, dflt)
	case upper >= floor:
		p.notes = append(p.notes, fmt.Sprintf("dfs.blocksize %s keeps %dx scheduled-space headroom (CKPT101) but caps files at %s (CKPT105 warns): raise dfs.namenode.fs-limits.max-blocks-per-file on the NameNode to at least %d",
			units.HadoopBytesString(upper), headroom, units.FormatBytes(upper*maxBlocksPerFile), (fileCap+upper-1)/upper))
		return upper, fmt.Sprintf("%s: the largest whole MiB at which %s; %dx headroom (CKPT101) is preferred over files of 16 GiB (CKPT105): %s, so raise dfs.namenode.fs-limits.max-blocks-per-file on the NameNode to at least %d%s",
			units.HadoopBytesString(upper), sched(upper), headroom, capText(upper), (fileCap+upper-1)/upper, dflt)
	}
	p.notes = append(p.notes, fmt.Sprintf("even dfs.blocksize %s leaves each DataNode only %.1fx the checkpoint files in flight (CKPT101 aims at %dx): the cluster needs more DataNodes or free space, or the jobs fewer checkpoint files",
		units.HadoopBytesString(floor), float64(capacity(floor))/float64(per), headroom))
	return floor, fmt.Sprintf("%s: the smallest block size the NameNode accepts (%s, %s), and still %s, below the %dx aimed at (CKPT101): add DataNodes or free space, or write fewer checkpoint files%s",
		units.HadoopBytesString(floor), units.FormatBytes(minBlock), minFrom, sched(floor), headroom, dflt)
}

func roundUp(n, m int64) int64 { return (n + m - 1) / m * m }

func (p *plan) clientSettings() []setting {
	bs, bsWhy := p.blocksize()
	r := p.replication()
	rWhy := fmt.Sprintf("%d, Hadoop's default, written down: the number of DataNodes is not declared for cluster %q (CKPT402)", r, p.cl.Name)
	if p.cl.Datanodes != nil {
		rWhy = fmt.Sprintf("%d = min(3, the %d DataNode(s) of cluster %q): no more replicas than DataNodes, so blocks are not left under-replicated (CKPT402)", r, *p.cl.Datanodes, p.cl.Name)
	}
	ss := []setting{
		{key: "dfs.blocksize", value: units.HadoopBytesString(bs), why: bsWhy},
		{key: "dfs.replication", value: fmt.Sprint(r), why: rWhy},
	}
	if dn := p.cl.Datanodes; dn != nil && *dn <= 3 {
		ss = append(ss, setting{key: "dfs.client.block.write.replace-datanode-on-failure.best-effort", value: "true",
			why: fmt.Sprintf("true: on %d DataNode(s) a write pipeline that loses a node has no spare one to add, and the write would fail; best-effort goes on with the remaining replicas (CKPT403)", *dn)})
	}
	return ss
}

// scannerFixed reports whether the Hadoop release has both DirectoryScanner
// lock fixes (HDFS-14476, HDFS-15415): 3.2.2+ on the 3.2 line, 3.3.1+.
func (p *plan) scannerFixed() bool {
	h := p.hadoop
	return h.AtLeast(model.Version{Major: 3, Minor: 3, Patch: 1}) ||
		(h.AtLeast(model.Version{Major: 3, Minor: 2, Patch: 2}) && h.Less(model.V(3, 3)))
}

func (p *plan) datanodeSettings() []setting {
	interval, why := "21600", fmt.Sprintf("21600 s (6 h), Hadoop's default, written down: %s", p.hadoopText)
	blocks := p.cl.DatanodeBlocks
	switch {
	case p.scannerFixed():
		why += " has both DirectoryScanner lock fixes (HDFS-14476, HDFS-15415), so a scan does not stall writes"
	case blocks != nil && *blocks >= manyBlocks:
		interval = "604800"
		why = fmt.Sprintf("604800 s (7 d) instead of the default 6 h: %s lacks HDFS-14476 or HDFS-15415, so each scan of the %d block replicas per DataNode (datanode_blocks) holds the dataset lock and stalls block writes (CKPT301); scanning weekly makes that rare and keeps the disk/memory consistency check, which a negative value would turn off. Upgrade to 3.2.2 or 3.3.1+ to remove the stall", p.hadoopText, *blocks)
	case blocks != nil:
		why += fmt.Sprintf(" lacks a DirectoryScanner lock fix, but %d block replicas per DataNode scan quickly", *blocks)
	default:
		why += fmt.Sprintf(" lacks a DirectoryScanner lock fix (HDFS-14476, HDFS-15415): declare datanode_blocks for cluster %q; with millions of block replicas per DataNode a larger interval is written (CKPT301)", p.cl.Name)
	}
	throttle := "500: each scanner thread walks the volumes' block files for at most 500 ms of every second; only 1 to 999 throttle, 1000 or more means no limit (CKPT302)"
	if p.hadoop.Less(model.Version{Major: 2, Minor: 7, Patch: 4}) {
		throttle += fmt.Sprintf(". %s does not read this key yet (HDFS-8873 added it in 2.7.4 and 2.8.0): it takes effect after an upgrade", p.hadoopText)
	}
	return []setting{
		{key: "dfs.datanode.directoryscan.interval", value: interval, why: why},
		{key: "dfs.datanode.directoryscan.throttle.limit.ms.per.sec", value: "500", why: throttle},
	}
}

func (p *plan) flinkHeader(name string) []string {
	h := []string{
		fmt.Sprintf("Baseline Flink configuration written by ckptlint generate for %s.", p.where()),
		fmt.Sprintf("%s (%s), %s (%s).", p.flinkText, p.flinkFrom, p.hadoopText, p.hadoopFrom),
	}
	if name == "flink-conf.yaml" {
		h = append(h, "Flink up to 1.18 reads conf/flink-conf.yaml with its legacy line parser: flat \"key: value\" lines, and a # anywhere starts a comment.")
	} else {
		h = append(h, "Flink reads conf/config.yaml as standard YAML (the distribution's default file from 1.19; 2.x reads nothing else). On 1.19 and 1.20 a flink-conf.yaml beside it would be read instead: do not keep one.")
	}
	return append(h, "Each value says why it was chosen and where its numbers come from (.ckptlint.hcl, Flink and Hadoop defaults); ckptlint rule ids in parentheses.")
}

func (p *plan) clientHeader() []string {
	h := fmt.Sprintf("HDFS client settings for Flink's checkpoint writes, written by ckptlint generate for %s (%s, %s). ", p.where(), p.hadoopText, p.hadoopFrom) +
		"Flink's HDFS client reads hdfs-site.xml from HADOOP_CONF_DIR (env.hadoop.conf.dir in the Flink configuration sets it): put these properties into that directory's hdfs-site.xml, next to the core-site.xml that names the NameNode."
	if p.flink.AtLeast(model.V(1, 13)) {
		h += " On Flink 1.13 or later, flink.hadoop.<key> entries in the Flink configuration would set them too."
	}
	return []string{h}
}

func (p *plan) datanodeHeader() []string {
	return []string{fmt.Sprintf("DataNode settings written by ckptlint generate for %s (%s, %s). Not a complete hdfs-site.xml: merge these properties into the hdfs-site.xml of every DataNode and restart the DataNodes.", p.where(), p.hadoopText, p.hadoopFrom)}
}

// flinkFile renders the Flink settings with the YAML library: flat keys in
// flink-conf.yaml (all the legacy parser reads), nested keys in config.yaml
// like the distribution's file.
func (p *plan) flinkFile(name string, ss []setting) []byte {
	root := &yaml.Node{Kind: yaml.MappingNode}
	nested := name == "config.yaml" && !prefixClash(ss)
	for _, s := range ss {
		m, path := root, []string{s.key}
		if nested {
			path = strings.Split(s.key, ".")
		}
		for _, seg := range path[:len(path)-1] {
			m = child(m, seg)
		}
		m.Content = append(m.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Value: path[len(path)-1], HeadComment: comment("# ", s.why, 100-2*(len(path)-1))},
			&yaml.Node{Kind: yaml.ScalarNode, Value: s.value, Tag: s.tag})
	}
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}, HeadComment: comment("# ", strings.Join(p.flinkHeader(name), "\n"), 100)}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		panic(err) // encoding a tree of plain scalars cannot fail
	}
	enc.Close()
	return spaceComments(buf.Bytes(), "#")
}

// child returns the mapping under key in m, adding it when missing.
func child(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	c := &yaml.Node{Kind: yaml.MappingNode}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, c)
	return c
}

// prefixClash reports a key that is a prefix of another: nested YAML cannot
// hold both, so such a file is written flat.
func prefixClash(ss []setting) bool {
	for _, a := range ss {
		for _, b := range ss {
			if strings.HasPrefix(b.key, a.key+".") {
				return true
			}
		}
	}
	return false
}

// hadoopXML renders a Hadoop configuration file with etree, each property
// after a comment with its reason.
func hadoopXML(header []string, ss []setting) []byte {
	doc := etree.NewDocument()
	doc.CreateProcInst("xml", `version="1.0" encoding="UTF-8"`)
	doc.CreateComment(xmlComment(strings.Join(header, "\n"), 0))
	conf := doc.CreateElement("configuration")
	for _, s := range ss {
		conf.CreateComment(xmlComment(s.why, 2))
		prop := conf.CreateElement("property")
		prop.CreateElement("name").SetText(s.key)
		prop.CreateElement("value").SetText(s.value)
	}
	doc.Indent(2)
	b, err := doc.WriteToBytes()
	if err != nil {
		panic(err) // writing a fixed in-memory tree cannot fail
	}
	return spaceComments(b, "<!--")
}

// xmlComment wraps text for a comment at indent; "--" may not occur in one.
func xmlComment(text string, indent int) string {
	text = strings.ReplaceAll(text, "--", "- -")
	lead := strings.Repeat(" ", indent+5)
	return " " + strings.TrimPrefix(comment(lead, text, 100), lead) + " "
}

// comment wraps text at width columns, each line starting with lead; a
// newline in text starts a new line.
func comment(lead, text string, width int) string {
	var lines []string
	for para := range strings.SplitSeq(text, "\n") {
		line := lead
		for _, w := range strings.Fields(para) {
			if len(line) > len(lead) && len(line)+1+len(w) > width {
				lines = append(lines, line)
				line = lead
			}
			if len(line) > len(lead) {
				line += " "
			}
			line += w
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// spaceComments puts a blank line before each comment that follows a
// value, and before each top-level YAML key that follows one, so every
// setting reads as a paragraph of its own.
func spaceComments(b []byte, marker string) []byte {
	lines := strings.Split(string(b), "\n")
	var out []string
	for i, l := range lines {
		if i > 0 {
			prev := strings.TrimSpace(lines[i-1])
			value := prev != "" && !strings.HasPrefix(prev, marker) && !strings.HasSuffix(prev, ":") &&
				prev != "<configuration>" && !strings.HasSuffix(prev, "-->")
			topKey := marker == "#" && l != "" && l[0] != ' ' && l[0] != '#'
			if value && (strings.HasPrefix(strings.TrimSpace(l), marker) || topKey) {
				out = append(out, "")
			}
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, "\n"))
}
