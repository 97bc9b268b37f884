// Package logs recognises the Flink and Hadoop log messages that the
// checkpoint failures ckptlint guards against leave behind, and names the
// rules and settings to look at. It is the path a user takes when
// production already failed: `ckptlint explain --log FILE`.
package logs

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Pattern is one known failure message.
type Pattern struct {
	ID      string         // stable, e.g. "hdfs-min-replication"
	Title   string         // what happened, in one line
	Re      *regexp.Regexp // matched against each line
	Meaning string         // the mechanism, with %[n]s placeholders for submatches
	Rules   []string       // rule ids to look at
	Keys    []string       // settings to look at
	// Proves reads the .ckptlint.hcl facts a matching line is evidence of
	// from its submatches (sub[0] the whole match); nil when it proves none.
	Proves func(sub []string) []Evidence
	// Facts names the attributes Proves can yield, for explain's listing.
	Facts []string
	// Context is looked for in the lines that continue a matching one (a
	// stack trace: lines that do not start with a digit, as every log
	// record's timestamp does), at most maxContext of them; when found,
	// the match's Via is ContextNote.
	Context     *regexp.Regexp
	ContextNote string
}

// Match is one recognised line.
type Match struct {
	Line    int
	Text    string
	Pattern *Pattern
	Meaning string
	// Via is the pattern's ContextNote when its Context was found in the
	// lines after this one ("DirectoryScanner.scan holds it"), else "".
	Via string
	// Evidence is what the line proves (Pattern.Proves).
	Evidence []Evidence
}

// Evidence is one fact value a log line proves.
type Evidence struct {
	Attr  string // the .ckptlint.hcl attribute: datanode_blocks, write_stall, ...
	Value int64  // a count, bytes, or for write_stall milliseconds
	// Key groups values that add up (datanode_blocks: the block pool id);
	// "" for values that do not.
	Key string
	// What says where the value comes from in the line.
	What string
}

// Patterns returns the catalogue, in the order they are tried on a line.
// Texts are the upstream messages (Hadoop 2 and 3 wordings both). The
// regular expressions are compiled on the first call, not at process start
// (docs/performance.md, "Startup").
var Patterns = sync.OnceValue(func() []*Pattern { return patterns() })

func patterns() []*Pattern {
	return []*Pattern{
		{
			ID:    "hdfs-min-replication",
			Title: "HDFS could not place a block on any DataNode",
			Re:    regexp.MustCompile(`could only be (?:written to|replicated to) (\d+)(?: of the (\d+) minReplication nodes| nodes instead of minReplication \(=(\d+)\))\.\s+There are (\d+) datanode\(s\) running and (\S+) node\(s\) are excluded`),
			Meaning: "The NameNode found no DataNode to take the block although DataNodes are running: each one was rejected, typically because " +
				"blocksScheduled x dfs.blocksize exceeds its free space (many small checkpoint files, each reserving a whole 128 MiB block). " +
				"Lower the client dfs.blocksize where Flink's HDFS client reads it.",
			Rules: []string{"CKPT101", "CKPT102"},
			Keys:  []string{"dfs.blocksize", "dfs.namenode.fs-limits.min-block-size", "dfs.replication"},
			Facts: []string{"datanodes"},
			// "There are N datanode(s) running": the leaves of the NameNode's
			// NetworkTopology (BlockManager.chooseTarget4NewBlock), the live
			// DataNodes, decommissioning ones included.
			Proves: func(sub []string) []Evidence {
				return evidence("datanodes", sub[4], "", sub[4]+" datanode(s) running")
			},
		},
		{
			ID:    "hdfs-min-replication-fragment",
			Title: "HDFS could not place a block on any DataNode",
			Re:    regexp.MustCompile(`There are (\d+) datanode\(s\) running and (no|\d+) node\(s\) are excluded`),
			Meaning: "The NameNode rejected every running DataNode for a new block; with DataNodes running and none excluded, the usual cause " +
				"is scheduled space: each in-flight block reserves dfs.blocksize on a DataNode.",
			Rules: []string{"CKPT101"},
			Keys:  []string{"dfs.blocksize"},
			Facts: []string{"datanodes"},
			Proves: func(sub []string) []Evidence {
				return evidence("datanodes", sub[1], "", sub[1]+" datanode(s) running")
			},
		},
		{
			// BlockPlacementPolicyDefault (Hadoop 2.7, "Storage ... is not chosen
			// since the node does not have enough DISK space (required=...,
			// scheduled=..., remaining=...).", logNodeIsNotChosen) and
			// DatanodeDescriptor.chooseStorage4Block (Hadoop 3.1 to 3.4, "The node
			// ... does not have enough DISK space (required=..., scheduled=...,
			// remaining=...)."), both at DEBUG on BlockPlacementPolicy.LOG:
			// required is blockSize x minBlocksForWrite, scheduled blockSize x
			// getBlocksScheduled().
			ID:    "hdfs-not-enough-space",
			Title: "The NameNode rejected a DataNode for a new block: not enough space for its scheduled blocks",
			Re:    regexp.MustCompile(`does not have enough (\w+) space \(required=(\d+), scheduled=(\d+), remaining=(\d+)\)`),
			Meaning: "A new block needs %[2]s bytes (dfs.blocksize) on top of the %[3]s bytes already reserved for the blocks scheduled " +
				"on this DataNode, which has %[4]s bytes of %[1]s remaining: every block in flight reserves a whole dfs.blocksize, so many " +
				"small checkpoint files exhaust the scheduled space long before the disk is full. Lower the client dfs.blocksize.",
			Rules: []string{"CKPT101"},
			Keys:  []string{"dfs.blocksize"},
			Facts: []string{"datanode_free_bytes"},
			Proves: func(sub []string) []Evidence {
				return evidence("datanode_free_bytes", sub[4], "", "remaining="+sub[4]+" of a DataNode the NameNode rejected")
			},
		},
		{
			ID:    "hdfs-lease-expired",
			Title: "A checkpoint file's directory was deleted while a task still wrote it (Hadoop 2 wording)",
			Re:    regexp.MustCompile(`No lease on (\S+).*File does not exist`),
			Meaning: "The NameNode no longer knows %[1]s: Flink deleted the checkpoint directory (an expired or subsumed checkpoint's chk-N) " +
				"while a TaskManager was still writing into it. Give checkpoints time to finish (a timeout well above the slowest checkpoint), " +
				"keep max-concurrent-checkpoints at 1 so none is subsumed in flight, and tolerate occasional failures " +
				"(min-pause counts from the last completed checkpoint, so it leaves no gap after an expiry).",
			Rules: []string{"CKPT201", "CKPT204", "CKPT205"},
			Keys: []string{"execution.checkpointing.timeout", "execution.checkpointing.max-concurrent-checkpoints",
				"execution.checkpointing.min-pause", "execution.checkpointing.tolerable-failed-checkpoints"},
		},
		{
			// FSNamesystem.checkLease (Hadoop 3.1 to 3.4): "File does not exist: "
			// + src + " (inode N) " + the holder's lease ("[Lease.  Holder: ...,
			// pending creates: N]", LeaseManager.Lease.toString) or "Holder ...
			// does not have any open files.".
			ID:    "hdfs-file-does-not-exist",
			Title: "A checkpoint file's directory was deleted while a task still wrote it (Hadoop 3 wording)",
			Re:    regexp.MustCompile(`File does not exist: (\S+).*(?:does not have any open files|\[Lease\.  Holder: )`),
			Meaning: "The NameNode no longer knows %[1]s: Flink deleted the checkpoint directory (an expired or subsumed checkpoint's chk-N) " +
				"while a TaskManager was still writing into it.",
			Rules: []string{"CKPT201", "CKPT204", "CKPT205"},
			Keys:  []string{"execution.checkpointing.timeout", "execution.checkpointing.max-concurrent-checkpoints", "execution.checkpointing.min-pause"},
		},
		{
			// The other LeaseExpiredExceptions of FSNamesystem.checkLease (Hadoop
			// 3.4.1: "INode is not a regular file: ", "File is not open for
			// writing: ", "Client (=...) is not the lease owner (=...: ") and
			// getNewBlockTargets' "Lease mismatch", after the two above.
			ID:    "hdfs-lease-expired-other",
			Title: "The NameNode refused a write to a checkpoint file whose lease is gone",
			Re:    regexp.MustCompile(`LeaseExpiredException: (?:INode is not a regular file|File is not open for writing|Client \(=\S+\) is not the lease owner|Lease mismatch)[^/]*(/\S*)?`),
			Meaning: "The NameNode no longer holds this writer's lease on %[1]s: the file was closed, replaced or deleted under the writer, " +
				"as when Flink deletes an expired or subsumed checkpoint's chk-N directory while a TaskManager still writes into it.",
			Rules: []string{"CKPT201", "CKPT204", "CKPT205"},
			Keys:  []string{"execution.checkpointing.timeout", "execution.checkpointing.max-concurrent-checkpoints", "execution.checkpointing.min-pause"},
		},
		{
			ID:    "flink-could-not-flush",
			Title: "A TaskManager could not finish writing a checkpoint file",
			Re:    regexp.MustCompile(`Could not flush (?:to file )?and close the file system output stream to (\S+?)(?:\s+in order| |$)`),
			Meaning: "Writing %[1]s to the checkpoint storage failed or was cut off. On HDFS look at the cause below this line: a deleted " +
				"chk-N directory (checkpoint expired or subsumed), a DataNode stall (DirectoryScanner lock on old Hadoop versions), or no " +
				"DataNode accepting the block (scheduled space).",
			Rules: []string{"CKPT201", "CKPT301", "CKPT101", "CKPT204"},
			Keys:  []string{"execution.checkpointing.timeout", "dfs.datanode.directoryscan.interval", "dfs.blocksize"},
		},
		{
			ID:    "flink-checkpoint-expired",
			Title: "A checkpoint took longer than the checkpoint timeout",
			Re:    regexp.MustCompile(`Checkpoint (\d+) of job (\S+) expired before completing`),
			Meaning: "Checkpoint %[1]s ran past execution.checkpointing.timeout and was aborted; its chk-%[1]s directory is deleted while tasks may " +
				"still write into it. Compare the timeout with the slowest checkpoints and HDFS write stalls.",
			Rules: []string{"CKPT201", "CKPT301", "CKPT205"},
			Keys:  []string{"execution.checkpointing.timeout", "execution.checkpointing.tolerable-failed-checkpoints"},
		},
		{
			ID:      "flink-tolerable-exceeded",
			Title:   "The job failed because too many checkpoints failed in a row",
			Re:      regexp.MustCompile(`Exceeded checkpoint tolerable failure threshold`),
			Meaning: "More consecutive checkpoints failed than execution.checkpointing.tolerable-failed-checkpoints allows (0 by default: the first failure restarts the job).",
			Rules:   []string{"CKPT205"},
			Keys:    []string{"execution.checkpointing.tolerable-failed-checkpoints"},
		},
		{
			ID:    "hdfs-replace-datanode",
			Title: "The write pipeline lost a DataNode and had none to replace it",
			Re:    regexp.MustCompile(`Failed to replace a bad datanode on the existing pipeline due to no more good datanodes being available to try`),
			Meaning: "replace-datanode-on-failure is on, but the cluster has no spare DataNode; on clusters of 3 DataNodes or fewer set the " +
				"policy to NEVER or best-effort to true.",
			Rules: []string{"CKPT403"},
			Keys: []string{"dfs.client.block.write.replace-datanode-on-failure.policy",
				"dfs.client.block.write.replace-datanode-on-failure.best-effort"},
		},
		{
			ID:      "hdfs-block-below-minimum",
			Title:   "The client block size is below the NameNode's minimum",
			Re:      regexp.MustCompile(`Specified block size (\d+) is less than configured minimum value dfs\.namenode\.fs-limits\.min-block-size=(\d+)`),
			Meaning: "dfs.blocksize %[1]s is below the NameNode's dfs.namenode.fs-limits.min-block-size %[2]s: every file create fails.",
			Rules:   []string{"CKPT102"},
			Keys:    []string{"dfs.blocksize", "dfs.namenode.fs-limits.min-block-size"},
		},
		{
			ID:      "hdfs-checksum-divide",
			Title:   "The block size is not a multiple of dfs.bytes-per-checksum",
			Re:      regexp.MustCompile(`dfs\.bytes-per-checksum \(=(\d+)\) must divide block size \(=(\d+)\)`),
			Meaning: "dfs.blocksize %[2]s is not a multiple of dfs.bytes-per-checksum %[1]s: the HDFS client refuses to create files.",
			Rules:   []string{"CKPT103"},
			Keys:    []string{"dfs.blocksize", "dfs.bytes-per-checksum"},
		},
		{
			ID:      "hadoop-size-prefix",
			Title:   "A Hadoop size value has a suffix Hadoop does not know",
			Re:      regexp.MustCompile(`Invalid size prefix '(.)' in '([^']*)'`),
			Meaning: "Hadoop reads sizes as a number with one of k, m, g, t, p, e: %[2]q is not one (write 1m, not 1mb).",
			Rules:   []string{"CKPT104"},
			Keys:    []string{"dfs.blocksize"},
		},
		{
			ID:      "hdfs-max-blocks-per-file",
			Title:   "A file reached the maximum number of blocks",
			Re:      regexp.MustCompile(`File has reached the limit on maximum number of blocks`),
			Meaning: "With a very small dfs.blocksize a large file (savepoint, RocksDB SST) runs into dfs.namenode.fs-limits.max-blocks-per-file.",
			Rules:   []string{"CKPT105"},
			Keys:    []string{"dfs.blocksize", "dfs.namenode.fs-limits.max-blocks-per-file"},
		},
		{
			ID:      "hdfs-replace-policy-illegal",
			Title:   "Illegal replace-datanode-on-failure policy",
			Re:      regexp.MustCompile(`Illegal configuration value for dfs\.client\.block\.write\.replace-datanode-on-failure\.policy`),
			Meaning: "Only ALWAYS, NEVER and DEFAULT are accepted (DISABLE is not).",
			Rules:   []string{"CKPT404"},
			Keys:    []string{"dfs.client.block.write.replace-datanode-on-failure.policy"},
		},
		{
			ID:      "hdfs-replication-range",
			Title:   "The replication factor is outside the NameNode's range",
			Re:      regexp.MustCompile(`Requested replication factor of (\d+) (?:exceeds maximum of|is less than the required minimum of) (\d+)`),
			Meaning: "dfs.replication %[1]s is outside the NameNode's dfs.replication.max / dfs.namenode.replication.min (%[2]s).",
			Rules:   []string{"CKPT402"},
			Keys:    []string{"dfs.replication", "dfs.replication.max", "dfs.namenode.replication.min"},
		},
		{
			ID:      "flink-backend-factory",
			Title:   "Flink does not know the configured state backend",
			Re:      regexp.MustCompile(`Cannot find configured state backend factory class: (\S+)`),
			Meaning: "state.backend.type %[1]s is not a backend this Flink version knows (filesystem and jobmanager were removed in 2.0: use hashmap).",
			Rules:   []string{"CKPT506"},
			Keys:    []string{"state.backend.type"},
		},
		{
			// DirectoryScanner.Stats.toString, logged after each scan of a block
			// pool: "BlockPool <bpid> Total blocks: N, missing metadata files:0,
			// missing block files:0, missing blocks in memory:0, mismatched
			// blocks:0" (Hadoop 2.6.5, 3.1.3, 3.2.1: no space after the colons,
			// LOG.info(statsRecord.toString())); "Scan Results: BlockPool <bpid>
			// Total blocks: N, missing metadata files: 0, ..., mismatched blocks:
			// 0, duplicated blocks: 0" (3.3.6, 3.4.1, LOG.info("Scan Results:
			// {}", statsRecord)). Total blocks counts the block files of that pool
			// on the DataNode's disks: its block replicas. No release logs how long
			// a scan took; the dataset lock warning below is the stall.
			ID:    "hdfs-directoryscanner-summary",
			Title: "A DataNode DirectoryScanner scan finished: the DataNode's block replicas",
			Re: regexp.MustCompile(`BlockPool (\S+) Total blocks: (\d+), missing metadata files: ?(\d+), missing block files: ?(\d+), ` +
				`missing blocks in memory: ?(\d+), mismatched blocks: ?(\d+)`),
			Meaning: "The DirectoryScanner compared the %[2]s block replicas of block pool %[1]s on this DataNode's disks with its in-memory " +
				"replica map (%[5]s missing in memory, %[6]s mismatched). On Hadoop releases without HDFS-14476 and HDFS-15415 (before 2.10.1, " +
				"3.0.x, 3.1.x, 3.2.0 and 3.2.1, 3.3.0) the scan holds the dataset lock while it compares them, and block writes wait: with " +
				"millions of replicas the stall outlasts checkpoint timeouts.",
			Rules: []string{"CKPT301", "CKPT302", "CKPT303"},
			Keys:  []string{"dfs.datanode.directoryscan.interval", "dfs.datanode.directoryscan.throttle.limit.ms.per.sec"},
			Facts: []string{"datanode_blocks"},
			Proves: func(sub []string) []Evidence {
				return evidence("datanode_blocks", sub[2], sub[1], "DirectoryScanner BlockPool "+sub[1]+" Total blocks: "+sub[2])
			},
		},
		{
			// InstrumentedLock.logWarning: "Lock held time above threshold: lock
			// identifier: <name> lockHeldTimeMs=N ms. Suppressed N lock warnings.
			// The stack trace is: ..." (Hadoop 3.1.3, 3.2.1), "Lock held time
			// above threshold(T ms): lock identifier: <name> lockHeldTimeMs=N ms.
			// Suppressed N lock warnings. Longest suppressed LockHeldTimeMs=M. The
			// stack trace is: ..." (3.3.6, 3.4.1). The DataNode's dataset lock is
			// an InstrumentedLock named after FsDatasetImpl (3.1, 3.2) or
			// "FsDatasetRWLock" (3.3); in 3.4 DataSetLockManager replaces it. The
			// stack trace follows on the next lines; DirectoryScanner.scan in it is
			// the scanner stall of HDFS-14476.
			ID:    "hdfs-lock-held",
			Title: "A DataNode held its dataset lock past the warning threshold: block writes waited",
			Re: regexp.MustCompile(`Lock held time above threshold(?:\((\d+) ms\))?: lock identifier: (\S+) lockHeldTimeMs=(\d+) ms\. ` +
				`Suppressed (\d+) lock warnings\.(?: Longest suppressed LockHeldTimeMs=(\d+)\.)?`),
			Meaning: "The lock %[2]s was held for %[3]s ms; while the DataNode's dataset lock is held no block write can proceed, so every " +
				"checkpoint file in flight to this DataNode stalled that long. A checkpoint timeout that is not well above it expires.",
			Rules:       []string{"CKPT301", "CKPT302", "CKPT201", "CKPT205"},
			Keys:        []string{"dfs.datanode.directoryscan.interval", "execution.checkpointing.timeout", "execution.checkpointing.tolerable-failed-checkpoints"},
			Facts:       []string{"write_stall"},
			Context:     regexp.MustCompile(`DirectoryScanner\.(?:scan|reconcile)`),
			ContextNote: "the stack trace shows DirectoryScanner.scan holding it: the scanner stall of HDFS-14476 and HDFS-15415 (CKPT301)",
			Proves: func(sub []string) []Evidence {
				if !strings.Contains(sub[2], "FsDataset") {
					return nil // not the dataset lock: no write waited on it
				}
				ms, what := sub[3], "lockHeldTimeMs="+sub[3]
				if longer(sub[5], ms) {
					ms, what = sub[5], "Longest suppressed LockHeldTimeMs="+sub[5]
				}
				return evidence("write_stall", ms, "", what+" ("+sub[2]+")")
			},
		},
		{
			// BlockReceiver.receivePacket and flushOrSync, at WARN above
			// dfs.datanode.slow.io.warning.threshold.ms (300 ms): "Slow
			// BlockReceiver write data to disk cost:Nms" (Hadoop 2.6.5 to 3.3.6),
			// "cost: Nms" (3.4.1); "Slow BlockReceiver write packet to mirror took
			// Nms"; "Slow flushOrSync took Nms".
			ID:    "hdfs-slow-write",
			Title: "A DataNode wrote a block packet slowly",
			Re:    regexp.MustCompile(`Slow (BlockReceiver write data to disk cost: ?|BlockReceiver write packet to mirror took |flushOrSync took )(\d+) ?ms`),
			Meaning: "A write of the block pipeline took %[2]s ms on this DataNode (a slow disk, a full pipeline, a held dataset lock); " +
				"the client's writes waited that long.",
			Rules: []string{"CKPT201", "CKPT205", "CKPT301"},
			Keys:  []string{"execution.checkpointing.timeout", "execution.checkpointing.tolerable-failed-checkpoints"},
			Facts: []string{"write_stall"},
			Proves: func(sub []string) []Evidence {
				return evidence("write_stall", sub[2], "", "Slow "+strings.TrimSpace(sub[1])+" "+sub[2]+"ms")
			},
		},
		{
			// DataStreamer.ResponseProcessor.run (Hadoop 3.1.3 to 3.4.1: "Slow
			// ReadProcessor read fields for block <b> took Nms (threshold=...)")
			// and DFSOutputStream's in 2.6.5 ("Slow ReadProcessor read fields took
			// Nms"), above dfs.client.slow.io.warning.threshold.ms (30 s): the
			// pipeline's ack for a packet came that late.
			ID:    "hdfs-slow-ack",
			Title: "The HDFS client waited long for a write pipeline's acknowledgement",
			Re:    regexp.MustCompile(`Slow ReadProcessor read fields (?:for block (\S+) )?took (\d+)ms`),
			Meaning: "The writer's packet was acknowledged by the DataNode pipeline after %[2]s ms: the checkpoint file's write stalled that " +
				"long (on old Hadoop releases often a DataNode's DirectoryScanner holding the dataset lock).",
			Rules: []string{"CKPT201", "CKPT205", "CKPT301"},
			Keys:  []string{"execution.checkpointing.timeout", "execution.checkpointing.tolerable-failed-checkpoints"},
			Facts: []string{"write_stall"},
			Proves: func(sub []string) []Evidence {
				return evidence("write_stall", sub[2], "", "Slow ReadProcessor read fields took "+sub[2]+"ms")
			},
		},
		{
			ID:      "flink-boolean",
			Title:   "A boolean setting is not true or false",
			Re:      regexp.MustCompile(`Unrecognized option for boolean: (\S+)\. Expected either true or false`),
			Meaning: "Flink accepts only true or false; %[1]q (YAML 1.1 style yes/on) is refused.",
			Rules:   []string{"CKPT602"},
		},
	}
}

// maxEvidence bounds a value a line may prove: no DataNode holds 10^15
// block replicas and no stall lasts 10^15 ms, and maxKeys such values still
// add up within an int64.
const maxEvidence = 1_000_000_000_000_000

// evidence is one value of attr read from the decimal text n; none when n
// is not a plausible value (negative, or past maxEvidence).
func evidence(attr, n, key, what string) []Evidence {
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil || v < 0 || v > maxEvidence {
		return nil
	}
	return []Evidence{{Attr: attr, Value: v, Key: key, What: what}}
}

// longer reports whether the decimal a is set and above b.
func longer(a, b string) bool {
	x, err1 := strconv.ParseInt(a, 10, 64)
	y, err2 := strconv.ParseInt(b, 10, 64)
	return err1 == nil && err2 == nil && x > y
}

// MaxLine is how much of one log line is matched: a longer line (a stack
// trace joined onto one line, a binary dump) is matched on its first MaxLine
// bytes and the rest skipped (Summary.Clipped counts them).
const MaxLine = 1 << 20

// maxText is how much of a matched line a Match keeps (what explain
// prints of it is shorter).
const maxText = 4 << 10

// Scan reads r line by line and returns every recognised message. It holds
// every match: for a log of any size, use Summarize.
func Scan(r io.Reader) ([]Match, error) {
	var ptrs []*Match
	_, err := each(r, func(m *Match) { ptrs = append(ptrs, m) })
	out := make([]Match, len(ptrs))
	for i, m := range ptrs {
		out[i] = *m
	}
	return out, err
}

// Summary is what a log holds of the known failures, in memory bounded by
// the catalogue, whatever the log's size: the first line matching each
// pattern, in the order they first appear, how many lines match each, and
// the facts the lines prove.
type Summary struct {
	First []*Match
	Count map[string]int // by Pattern.ID
	// Lines is the number of lines read; Clipped how many of them were
	// longer than MaxLine (matched on their start), the first at line
	// FirstClipped.
	Lines, Clipped, FirstClipped int
	facts                        map[string]*Fact
}

// Fact is a .ckptlint.hcl fact a log proves, and the line that proves it:
// the largest write stall, the most block replicas, the least free space.
type Fact struct {
	Attr  string
	Value int64 // milliseconds for write_stall, bytes for datanode_free_bytes
	Match *Match
	What  string // the evidence in Match's line
	// Lines is how many lines gave a value for it; Keys, for
	// datanode_blocks, the block pools it adds up.
	Lines  int
	Keys   int
	perKey map[string]int64
}

// FactAttrs are the attributes a log can prove, in the order they are
// listed; all are a cluster block's (docs/config.md).
var FactAttrs = []string{"datanodes", "datanode_free_bytes", "datanode_blocks", "write_stall"}

// maxKeys bounds the block pools a datanode_blocks fact adds up, so a
// hostile log of distinct pool ids keeps the summary small.
const maxKeys = 64

// Facts returns what the log proves, one Fact per attribute, in FactAttrs
// order.
func (s *Summary) Facts() []*Fact {
	var out []*Fact
	for _, a := range FactAttrs {
		if f := s.facts[a]; f != nil {
			out = append(out, f)
		}
	}
	return out
}

// add folds one line's evidence into the summary's facts: datanodes and
// datanode_blocks (per block pool, then summed over the pools: one
// DataNode's replicas) and write_stall take the largest value, and
// datanode_free_bytes the smallest (the worst DataNode).
func (s *Summary) add(m *Match) {
	for _, e := range m.Evidence {
		f := s.facts[e.Attr]
		if f == nil {
			f = &Fact{Attr: e.Attr, Value: -1}
			s.facts[e.Attr] = f
		}
		f.Lines++
		var v int64
		switch {
		case e.Key != "":
			if f.perKey == nil {
				f.perKey = map[string]int64{}
			}
			old, ok := f.perKey[e.Key]
			if !ok && len(f.perKey) >= maxKeys {
				continue
			}
			if ok && old >= e.Value {
				continue
			}
			f.perKey[e.Key] = e.Value
			for _, n := range f.perKey {
				v += n
			}
			f.Keys = len(f.perKey)
		case e.Attr == "datanode_free_bytes":
			if f.Value >= 0 && e.Value >= f.Value {
				continue
			}
			v = e.Value
		default:
			if e.Value <= f.Value {
				continue
			}
			v = e.Value
		}
		f.Value, f.Match, f.What = v, m, e.What
	}
}

// Summarize reads r line by line, keeping only what Summary holds (issue
// 25: a 984 MB log whose every line matched used 1.27 GB when every match
// was kept). On a read error it returns what it read before the error.
func Summarize(r io.Reader) (*Summary, error) {
	s := &Summary{Count: map[string]int{}, facts: map[string]*Fact{}}
	st, err := each(r, func(m *Match) {
		if s.Count[m.Pattern.ID] == 0 {
			s.First = append(s.First, m)
		}
		s.Count[m.Pattern.ID]++
		s.add(m)
	})
	s.Lines, s.Clipped, s.FirstClipped = st.lines, st.clipped, st.firstClipped
	return s, err
}

// scanStats are what each counts of the lines it read.
type scanStats struct{ lines, clipped, firstClipped int }

// maxContext bounds the continuation lines searched for a Pattern's
// Context (a stack trace is some tens of frames).
const maxContext = 256

// each reads r line by line (a line over MaxLine matched on its first
// MaxLine bytes) and calls match for each recognised one. A match whose
// pattern has a Context may still gain its Via from the lines after it,
// until the next line that starts a log record.
func each(r io.Reader, match func(*Match)) (scanStats, error) {
	var st scanStats
	var c follower
	err := lines(r, &st, func(text string) {
		c.see(text)
		if m := matchLine(text, st.lines); m != nil {
			match(m)
			c.start(m)
		}
	})
	return st, err
}

// follower follows the continuation lines of the last match whose pattern
// has a Context.
type follower struct {
	m     *Match
	lines int
}

func (c *follower) start(m *Match) {
	if m.Pattern.Context != nil {
		c.m, c.lines = m, 0
	}
}

// see looks at the next line: a continuation of the followed match is
// searched for its Context, any other line ends the following.
func (c *follower) see(text string) {
	if c.m == nil {
		return
	}
	if !continues(text) || c.lines >= maxContext {
		c.m = nil
		return
	}
	c.lines++
	if c.m.Via == "" && c.m.Pattern.Context.MatchString(text) {
		c.m.Via = c.m.Pattern.ContextNote
	}
}

// lines reads r line by line and calls line for each, without its line
// ending; a line over MaxLine is passed on as its first MaxLine bytes and
// counted in st. A read error is returned with the number of the line it
// stopped in.
func lines(r io.Reader, st *scanStats, line func(string)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte // the start of a line longer than the reader's buffer
	over := false   // the line being read is longer than MaxLine
	for {
		chunk, err := br.ReadSlice('\n')
		if len(long)+len(chunk) > MaxLine {
			if !over {
				over = true
				st.clipped++
				if st.firstClipped == 0 {
					st.firstClipped = st.lines + 1
				}
			}
			chunk = chunk[:max(0, MaxLine-len(long))]
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, chunk...)
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("line %d: %w", st.lines+1, err)
		}
		text := chunk
		if len(long) > 0 {
			long = append(long, chunk...)
			text = long
		}
		if len(text) > 0 || over {
			st.lines++
			line(strings.TrimRight(string(text), "\r\n"))
		}
		long, over = long[:0], false
		if cap(long) > 4*br.Size() {
			long = nil // let a very long line's buffer go
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
	}
}

// continues reports whether a line continues the log record before it (a
// stack frame, "Caused by: ..."): every record of Hadoop's and Flink's
// log4j layouts starts with its date.
func continues(line string) bool {
	return line == "" || line[0] < '0' || line[0] > '9'
}

// matchLine tries the patterns on one line, n its number.
func matchLine(line string, n int) *Match {
	for _, p := range Patterns() {
		m := p.Re.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		out := &Match{Line: n, Text: clip(strings.TrimSpace(line), maxText), Pattern: p, Meaning: expand(p.Meaning, m[1:])}
		if p.Proves != nil {
			out.Evidence = p.Proves(m)
		}
		return out
	}
	return nil
}

// clip cuts s to at most n bytes, at a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func expand(format string, subs []string) string {
	if !strings.Contains(format, "%[") {
		return format
	}
	args := make([]any, len(subs))
	for i, s := range subs {
		args[i] = s
	}
	return fmt.Sprintf(format, args...)
}
