package generate

import (
	"fmt"
	"strings"
	"time"

	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/units"
)

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
	if s := p.size.SlotsPerTaskManager; s != nil {
		ss = append(ss, setting{"taskmanager.numberOfTaskSlots", fmt.Sprint(*s), "!!int", fmt.Sprintf("%d: slots_per_taskmanager of %s in .ckptlint.hcl", *s, p.size.SlotsPerTaskManagerFrom)})
	}
	p.runningNote()
	dir := "hdfs:///flink/checkpoints/" + p.label()
	ss = append(ss,
		setting{"parallelism.default", fmt.Sprint(p.par), "!!int", p.parWhy},
		setting{"execution.checkpointing.interval", "1 min", "!!str", "1 min: a restart replays at most about a minute of input; with one checkpoint at a time and the min-pause below, a slow checkpoint delays the next one instead of overlapping it"},
		setting{"execution.checkpointing.timeout", units.FlinkDurationString(timeout), "!!str", timeoutWhy},
		setting{"execution.checkpointing.min-pause", "30 s", "!!str", "30 s: at least half a minute of processing between the end of one checkpoint and the start of the next, so slow checkpoints never run back to back"},
		setting{"execution.checkpointing.max-concurrent-checkpoints", "1", "!!int", "1, Flink's default, written down: a second checkpoint in flight on HDFS gets subsumed and its chk-N directory deleted while TaskManagers still write into it (CKPT204); one at a time also bounds the checkpoint files in flight that dfs.blocksize is sized for"},
		setting{"execution.checkpointing.tolerable-failed-checkpoints", "3", "!!int", "3: one expired or failed checkpoint (an HDFS write stall, a DataNode restart) does not restart the job; a checkpoint path that stays broken still fails it after 4 failures in a row (CKPT205)" + p.failedText()},
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
// counts it, with the arithmetic: the blocks already scheduled on the
// busiest DataNode (datanode_blocks_scheduled, observed by `ckptlint facts`)
// count against the same free space (DatanodeDescriptor.chooseStorage4Block).
func (p *plan) filesPerDataNode(replication int) (int64, string) {
	par := p.parCounted
	files := int64(p.jobs() * par * p.operators())
	dn := int64(*p.cl.Datanodes)
	var scheduled int64
	if p.cl.DatanodeBlocksScheduled != nil {
		scheduled = *p.cl.DatanodeBlocksScheduled
	}
	per := (files*int64(replication)+dn-1)/dn + int64(intOr(p.cl.OtherWriters, 0)) + scheduled
	text := fmt.Sprintf("%d job(s) x parallelism %d x %d stateful operator(s) x 1 concurrent checkpoint = %d files, x %d replica(s) over %d DataNodes", p.jobs(), par, p.operators(), files, replication, dn)
	if o := intOr(p.cl.OtherWriters, 0); o > 0 {
		text += fmt.Sprintf(", + %d other writers", o)
	}
	if scheduled > 0 {
		text += fmt.Sprintf(", + %d blocks already scheduled on the busiest DataNode (datanode_blocks_scheduled)", scheduled)
	}
	return per, text
}

// failedText is what the running job's failed checkpoints add to the
// tolerable-failures reason, "" when checkpoint_failed is not declared.
func (p *plan) failedText() string {
	if p.dep == nil || p.dep.CheckpointFailed == nil || *p.dep.CheckpointFailed == 0 {
		return ""
	}
	return fmt.Sprintf("; the running job has had %d failed checkpoints (checkpoint_failed of deployment %q): tolerating a few keeps such failures from restarting it",
		*p.dep.CheckpointFailed, p.dep.Name)
}

// runningNote says how the running job's checkpoint settings
// (running_checkpointing, read by `ckptlint facts` from the JobManager)
// differ from the starter's: CKPT610 reports each difference until the job
// runs with the generated file.
func (p *plan) runningNote() {
	if p.dep == nil || p.dep.Running == nil {
		return
	}
	r := p.dep.Running
	var diffs []string
	dur := func(name string, got *time.Duration, want time.Duration) {
		if got != nil && *got != want {
			diffs = append(diffs, fmt.Sprintf("%s %s", name, units.FlinkDurationString(*got)))
		}
	}
	timeout, _ := p.timeout()
	dur("interval", r.Interval, time.Minute)
	dur("timeout", r.Timeout, timeout)
	dur("min-pause", r.MinPause, 30*time.Second)
	if r.MaxConcurrent != nil && *r.MaxConcurrent != 1 {
		diffs = append(diffs, fmt.Sprintf("max-concurrent-checkpoints %d", *r.MaxConcurrent))
	}
	if r.TolerableFailures != nil && *r.TolerableFailures != 3 {
		diffs = append(diffs, fmt.Sprintf("tolerable-failed-checkpoints %d", *r.TolerableFailures))
	}
	if r.Unaligned != nil && *r.Unaligned {
		diffs = append(diffs, "unaligned true")
	}
	if len(diffs) == 0 {
		return
	}
	job := "running job"
	if r.JobID != "" {
		job += " " + r.JobID
	}
	p.notes = append(p.notes, fmt.Sprintf("the %s checkpoints with %s (running_checkpointing of deployment %q), which the starter file does not: ckptlint lint reports each difference (CKPT610) until the job runs with the generated file; keep a running value where the job needs it",
		job, strings.Join(diffs, ", "), p.dep.Name))
}

func (p *plan) replication() int {
	if p.cl.Datanodes != nil {
		return min(3, *p.cl.Datanodes)
	}
	return 3
}

// blockLadder is the round block sizes generate and CKPT101 recommend from,
// largest first (policies/lib/blocksize.rego holds the same list).
var blockLadder = []int64{128 * mib, 64 * mib, 32 * mib, 16 * mib, 8 * mib, 4 * mib, 2 * mib, mib}

// blocksize picks dfs.blocksize (see docs/generate.md) as CKPT101 does: the
// largest round size (128m down to 1m, never below the NameNode minimum; a
// MiB is a multiple of the 512-byte checksum chunk) at which each DataNode
// can schedule headroom x the checkpoint files in flight. Hadoop's default
// 128 MiB stays when the cluster is roomy enough for it. When the chosen
// size caps files below 16 GiB (CKPT105), a note says to raise
// dfs.namenode.fs-limits.max-blocks-per-file.
func (p *plan) blocksize() (int64, string) {
	minBlock, minFrom := mib, "the NameNode's default minimum"
	if p.cl.MinBlockSize != nil {
		minBlock, minFrom = *p.cl.MinBlockSize, "min_block_size in .ckptlint.hcl"
	}
	floor := roundUp(max(minBlock, mib), mib)
	var cands []int64
	for _, s := range blockLadder {
		if s >= floor {
			cands = append(cands, s)
		}
	}
	if len(cands) == 0 || cands[len(cands)-1] != floor {
		cands = append(cands, floor)
	}
	capText := func(bs int64) string {
		return fmt.Sprintf("%s x %d blocks per file (the dfs.namenode.fs-limits.max-blocks-per-file default) = %s", units.FormatBytes(bs), maxBlocksPerFile, units.FormatBytes(bs*maxBlocksPerFile))
	}
	fileNeed, observed := p.fileNeed()
	capNote := func(bs int64) string {
		if bs*maxBlocksPerFile >= fileNeed {
			return ""
		}
		need := (fileNeed + bs - 1) / bs
		if observed != "" {
			p.notes = append(p.notes, fmt.Sprintf("one checkpoint file must be able to reach %s, more than the %s one file can reach at dfs.blocksize %s: a savepoint or full checkpoint writes each subtask's state as one file, so raise dfs.namenode.fs-limits.max-blocks-per-file on the NameNode to at least %d",
				observed, units.FormatBytes(bs*maxBlocksPerFile), units.HadoopBytesString(bs), need))
			return fmt.Sprintf("; it caps one file at %s, below %s, so raise dfs.namenode.fs-limits.max-blocks-per-file on the NameNode to at least %d", capText(bs), observed, need)
		}
		p.notes = append(p.notes, fmt.Sprintf("dfs.blocksize %s caps files at %s (CKPT105 reports it, a warning once state_size shows a subtask near that size): raise dfs.namenode.fs-limits.max-blocks-per-file on the NameNode to at least %d",
			units.HadoopBytesString(bs), units.FormatBytes(bs*maxBlocksPerFile), need))
		return fmt.Sprintf("; it caps one file at %s (CKPT105), so raise dfs.namenode.fs-limits.max-blocks-per-file on the NameNode to at least %d", capText(bs), need)
	}
	if p.cl.Datanodes == nil || p.cl.DatanodeFreeBytes == nil {
		bs := cands[0]
		return bs, fmt.Sprintf("%s: the largest of 128m, 64m, ... 1m the NameNode accepts (at least %s, %s); one file can reach %s (CKPT105)%s. Declare datanodes and datanode_free_bytes for cluster %q so the DataNodes' scheduled space can be checked (CKPT101): every checkpoint file reserves a whole block while it is written",
			units.HadoopBytesString(bs), units.FormatBytes(minBlock), minFrom, capText(bs), capNote(bs), p.cl.Name)
	}
	free := *p.cl.DatanodeFreeBytes
	per, arith := p.filesPerDataNode(p.replication())
	capacity := func(bs int64) int64 { return free/bs - minBlocksForWrite + 1 }
	sched := func(bs int64) string {
		return fmt.Sprintf("each DataNode can schedule %d blocks at once (%s free / %s), %.1fx the about %d checkpoint files in flight per DataNode (%s)",
			capacity(bs), units.FormatBytes(free), units.FormatBytes(bs), float64(capacity(bs))/float64(per), per, arith)
	}
	dflt := fmt.Sprintf(". Hadoop's default 128 MiB would let each DataNode schedule only %d", capacity(hadoopDefaultBS))
	for _, bs := range cands {
		if capacity(bs) >= headroom*per {
			if bs == hadoopDefaultBS {
				return bs, fmt.Sprintf("%s, Hadoop's default, written down: %s, at least the %dx aimed at (CKPT101); one file can reach %s (CKPT105)",
					units.HadoopBytesString(bs), sched(bs), headroom, capText(bs))
			}
			return bs, fmt.Sprintf("%s: the largest of 128m, 64m, ... 1m at which %s, at least %dx is the aim (CKPT101)%s%s",
				units.HadoopBytesString(bs), sched(bs), headroom, capNote(bs), dflt)
		}
	}
	for _, bs := range cands {
		if capacity(bs) > 2*per {
			p.notes = append(p.notes, fmt.Sprintf("no round dfs.blocksize leaves each DataNode %dx the checkpoint files in flight (CKPT101): %s leaves %.1fx; the cluster needs more DataNodes or free space for more margin",
				headroom, units.HadoopBytesString(bs), float64(capacity(bs))/float64(per)))
			return bs, fmt.Sprintf("%s: no round size keeps %dx, and this is the largest at which %s, more than the 2x below which CKPT101 warns%s%s",
				units.HadoopBytesString(bs), headroom, sched(bs), capNote(bs), dflt)
		}
	}
	capNote(floor)
	p.notes = append(p.notes, fmt.Sprintf("even dfs.blocksize %s leaves each DataNode only %.1fx the checkpoint files in flight (CKPT101 aims at %dx): the cluster needs more DataNodes or free space, or the jobs fewer checkpoint files",
		units.HadoopBytesString(floor), float64(capacity(floor))/float64(per), headroom))
	return floor, fmt.Sprintf("%s: the smallest block size the NameNode accepts (%s, %s), and still %s, below the %dx aimed at (CKPT101): add DataNodes or free space, or write fewer checkpoint files%s",
		units.HadoopBytesString(floor), units.FormatBytes(minBlock), minFrom, sched(floor), headroom, dflt)
}

// fileNeed is the size one checkpoint file must be able to reach: 16 GiB
// (CKPT105), or more when the deployment's facts say a subtask needs more,
// judged as CKPT105 judges them (policies/rules/blocksize/max_file_size.rego):
// twice the largest subtask's state_size (CKPT105 warns from half the cap);
// else the observed p99 checkpointed size spread over parallelism x the
// declared stateful operators (the average subtask, which the largest
// reaches at least; for an incremental checkpoint a lower bound of a
// subtask's full state). Both are at least 16 GiB when they decide, and
// CKPT105 reports no cap from 16 GiB. observed describes the fact that
// decides, "" when none does.
func (p *plan) fileNeed() (int64, string) {
	if p.dep == nil {
		return fileCap, ""
	}
	if s := p.dep.StateSize; s != nil {
		if 2**s < fileCap {
			return fileCap, ""
		}
		return 2 * *s, fmt.Sprintf("twice the %s of state of the largest subtask (state_size of deployment %q; CKPT105 warns from half the cap)",
			units.FormatBytes(*s), p.dep.Name)
	}
	ops := p.dep.StatefulOperators
	if p.dep.CheckpointSize == nil || ops == nil || *ops <= 0 || p.parCounted <= 0 {
		return fileCap, ""
	}
	per := *p.dep.CheckpointSize / (int64(p.parCounted) * int64(*ops))
	if per < fileCap {
		return fileCap, ""
	}
	return per, fmt.Sprintf("the about %s per subtask of the observed p99 checkpointed size %s (checkpoint_size of deployment %q) over parallelism %d x %d stateful operator(s)",
		units.FormatBytes(per), units.FormatBytes(*p.dep.CheckpointSize), p.dep.Name, p.parCounted, *ops)
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

// dnDesc names the DataNodes' version and, when it is not the client's,
// where it came from: "Hadoop 3.3.4 (datanode_hadoop_version of cluster
// "obs")".
func (p *plan) dnDesc() string {
	if p.dnFrom == p.hadoopFrom {
		return p.dnText
	}
	return p.dnText + " (" + p.dnFrom + ")"
}

// scannerFixed reports whether the Hadoop release has both DirectoryScanner
// lock fixes (HDFS-14476, HDFS-15415): 3.2.2+ on the 3.2 line, 3.3.1+.
func (p *plan) scannerFixed() bool {
	h := p.dn
	return h.AtLeast(model.Version{Major: 3, Minor: 3, Patch: 1}) ||
		(h.AtLeast(model.Version{Major: 3, Minor: 2, Patch: 2}) && h.Less(model.V(3, 3)))
}

func (p *plan) datanodeSettings() []setting {
	interval, why := "21600", fmt.Sprintf("21600 s (6 h), Hadoop's default, written down: %s", p.dnDesc())
	blocks := p.cl.DatanodeBlocks
	switch {
	case p.scannerFixed():
		why += " has both DirectoryScanner lock fixes (HDFS-14476, HDFS-15415), so a scan does not stall writes"
	case blocks != nil && *blocks >= manyBlocks:
		interval = "604800"
		why = fmt.Sprintf("604800 s (7 d) instead of the default 6 h: %s lacks HDFS-14476 or HDFS-15415, so each scan of the %d block replicas per DataNode (datanode_blocks) holds the dataset lock and stalls block writes (CKPT301); scanning weekly makes that rare and keeps the disk/memory consistency check, which a negative value would turn off. Upgrade to 3.2.2 or 3.3.1+ to remove the stall", p.dnDesc(), *blocks)
	case blocks != nil:
		why += fmt.Sprintf(" lacks a DirectoryScanner lock fix, but %d block replicas per DataNode scan quickly", *blocks)
	default:
		why += fmt.Sprintf(" lacks a DirectoryScanner lock fix (HDFS-14476, HDFS-15415): declare datanode_blocks for cluster %q; with millions of block replicas per DataNode a larger interval is written (CKPT301)", p.cl.Name)
	}
	throttle := "500: each scanner thread walks the volumes' block files for at most 500 ms of every second; only 1 to 999 throttle, 1000 or more means no limit (CKPT302)"
	if p.dn.Less(model.Version{Major: 2, Minor: 7, Patch: 4}) {
		throttle += fmt.Sprintf(". %s does not read this key yet (HDFS-8873 added it in 2.7.4 and 2.8.0): it takes effect after an upgrade", p.dnDesc())
	}
	return []setting{
		{key: "dfs.datanode.directoryscan.interval", value: interval, why: why},
		{key: "dfs.datanode.directoryscan.throttle.limit.ms.per.sec", value: "500", why: throttle},
	}
}
