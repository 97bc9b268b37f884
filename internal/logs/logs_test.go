package logs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMessages checks one line per upstream wording (Hadoop 3.4.1 and 2.6.5
// FSNamesystem.java, BlockManager.java; Flink 1.20 CheckpointCoordinator.java,
// FsCheckpointStreamFactory.java).
func TestMessages(t *testing.T) {
	tests := []struct {
		name, line, want string
	}{
		{"Hadoop 3 min replication (H3.4.1 BlockManager L2469)",
			"org.apache.hadoop.ipc.RemoteException(java.io.IOException): File /flink/checkpoints/x/chk-1/abc could only be written to 0 of the 1 minReplication nodes. There are 3 datanode(s) running and no node(s) are excluded in this operation.",
			"hdfs-min-replication"},
		{"Hadoop 2 min replication (H2.6.5 BlockManager L1559)",
			"File /flink/chk-1/abc could only be replicated to 0 nodes instead of minReplication (=1).  There are 3 datanode(s) running and no node(s) are excluded in this operation.",
			"hdfs-min-replication"},
		{"story (a) fragment", "There are 3 datanode(s) running and no node(s) are excluded", "hdfs-min-replication-fragment"},
		{"Hadoop 2 lease (H2.6.5 FSNamesystem L3554)",
			"LeaseExpiredException: No lease on /flink/job/chk-355/1005 (inode 937800469): File does not exist. Holder DFSClient_1 does not have any open files.",
			"hdfs-lease-expired"},
		{"Hadoop 3 file does not exist (H3.4.1 FSNamesystem L3174)",
			"java.io.FileNotFoundException: File does not exist: /flink/job/chk-355/1005 (inode 937800469) Holder DFSClient_1 does not have any open files.",
			"hdfs-file-does-not-exist"},
		{"Flink expiry (F1.20 CheckpointCoordinator L2327)", "Checkpoint 355 of job 1eb66edcfccce6124c3b2d6ae402ec39 expired before completing.", "flink-checkpoint-expired"},
		{"Flink tolerable (F1.20 CheckpointFailureManager L43)", "org.apache.flink.util.FlinkRuntimeException: Exceeded checkpoint tolerable failure threshold. The latest checkpoint failed due to Checkpoint expired before completing.", "flink-tolerable-exceeded"},
		{"Flink 1.20 flush wording (FsCheckpointStreamFactory L377)", "java.io.IOException: Could not flush to file and close the file system output stream to hdfs://nn/f/chk-1/x in order to obtain the stream state handle", "flink-could-not-flush"},
		{"pipeline recovery (H3.4.1 DataStreamer L1452)", "java.io.IOException: Failed to replace a bad datanode on the existing pipeline due to no more good datanodes being available to try. (Nodes: current=[a], original=[a]).", "hdfs-replace-datanode"},
		{"min block size (H3.4.1 FSNamesystem L2776)", "Specified block size 524288 is less than configured minimum value dfs.namenode.fs-limits.min-block-size=1048576", "hdfs-block-below-minimum"},
		{"checksum (H3.4.1 DFSOutputStream L236)", "HadoopIllegalArgumentException: Invalid values: dfs.bytes-per-checksum (=512) must divide block size (=1000000).", "hdfs-checksum-divide"},
		{"size prefix (H3.4.1 StringUtils)", "Invalid size prefix 'b' in '10kb'. Allowed prefixes are k, m, g, t, p, e(case insensitive)", "hadoop-size-prefix"},
		{"backend (F2.0 StateBackendLoader)", "Cannot find configured state backend factory class: filesystem", "flink-backend-factory"},
		// The DataNode and NameNode messages, one per release wording (read in
		// the release sources of Hadoop 2.6.5, 3.1.3, 3.2.1, 3.3.6, 3.4.1).
		{"scan summary H2.6.5/3.1.3/3.2.1 DirectoryScanner.Stats.toString",
			"2021-03-16 14:02:47,398 INFO org.apache.hadoop.hdfs.server.datanode.DirectoryScanner: BlockPool BP-1-10.0.0.5-1 Total blocks: 98412377, missing metadata files:0, missing block files:0, missing blocks in memory:41, mismatched blocks:0",
			"hdfs-directoryscanner-summary"},
		{"scan summary H3.3.6/3.4.1 Scan Results",
			"2026-11-30 02:11:09,514 INFO org.apache.hadoop.hdfs.server.datanode.DirectoryScanner: Scan Results: BlockPool BP-77-10.1.0.9-1 Total blocks: 3100000, missing metadata files: 0, missing block files: 0, missing blocks in memory: 2, mismatched blocks: 0, duplicated blocks: 0",
			"hdfs-directoryscanner-summary"},
		{"lock held H3.1.3/3.2.1 InstrumentedLock.logWarning",
			"WARN org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetImpl: Lock held time above threshold: lock identifier: org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetImpl lockHeldTimeMs=37204 ms. Suppressed 0 lock warnings. The stack trace is: java.lang.Thread.getStackTrace(Thread.java:1559)",
			"hdfs-lock-held"},
		{"lock held H3.3.6/3.4.1 InstrumentedLock.logWarning",
			"WARN org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetImpl: Lock held time above threshold(300 ms): lock identifier: FsDatasetRWLock lockHeldTimeMs=1204 ms. Suppressed 2 lock warnings. Longest suppressed LockHeldTimeMs=4210. The stack trace is: java.lang.Thread.getStackTrace(Thread.java:1564)",
			"hdfs-lock-held"},
		{"slow disk write H2.6.5-3.3.6 BlockReceiver.receivePacket", "WARN org.apache.hadoop.hdfs.server.datanode.DataNode: Slow BlockReceiver write data to disk cost:612ms (threshold=300ms), volume=file:/data/1/dfs/dn/, blockId=1093847562", "hdfs-slow-write"},
		{"slow disk write H3.4.1 BlockReceiver.receivePacket", "WARN org.apache.hadoop.hdfs.server.datanode.DataNode: Slow BlockReceiver write data to disk cost: 612ms (threshold=300ms), volume=/data/1/dfs/dn, blockId=1093847562, seqno=41", "hdfs-slow-write"},
		{"slow mirror write H3.1.3 BlockReceiver.receivePacket", "WARN org.apache.hadoop.hdfs.server.datanode.DataNode: Slow BlockReceiver write packet to mirror took 1450ms (threshold=300ms), downstream DNs=[10.30.7.12:9866], blockId=1093847562", "hdfs-slow-write"},
		{"slow flushOrSync H3.4.1 BlockReceiver.flushOrSync", "WARN org.apache.hadoop.hdfs.server.datanode.DataNode: Slow flushOrSync took 2310ms (threshold=300ms), isSync:true, flushTotalNanos=2309811223ns, volume=/data/1/dfs/dn, blockId=1093847562, seqno=41", "hdfs-slow-write"},
		{"slow ack H2.6.5 DFSOutputStream.ResponseProcessor", "WARN org.apache.hadoop.hdfs.DFSClient: Slow ReadProcessor read fields took 36911ms (threshold=30000ms); ack: seqno: 7 status: SUCCESS status: SUCCESS downstreamAckTimeNanos: 0, targets: [10.30.4.33:50010]", "hdfs-slow-ack"},
		{"slow ack H3.1.3-3.4.1 DataStreamer.ResponseProcessor", "INFO org.apache.hadoop.hdfs.DataStreamer: Slow ReadProcessor read fields for block BP-1-10.0.0.5-1:blk_1093847562_20112934 took 36911ms (threshold=30000ms); ack: seqno: 7, targets: [DatanodeInfoWithStorage[10.30.4.33:9866,DS-1,DISK]]", "hdfs-slow-ack"},
		{"not enough space H3.1.3 DatanodeDescriptor.chooseStorage4Block", "DEBUG org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy: The node 10.20.1.12:9866 does not have enough DISK space (required=134217728, scheduled=46170898432, remaining=46170898432).", "hdfs-not-enough-space"},
		{"lease H3.4.1 FSNamesystem.checkLease not open", "org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException: File is not open for writing: /flink/job/chk-355/1005 (inode 937800469) Holder DFSClient_NONMAPREDUCE_1_1 does not have any open files.", "hdfs-lease-expired-other"},
		{"lease H3.4.1 FSNamesystem.checkLease owner", "LeaseExpiredException: Client (=DFSClient_NONMAPREDUCE_2_1) is not the lease owner (=DFSClient_NONMAPREDUCE_1_1: /flink/job/chk-355/1005 (inode 937800469) [Lease.  Holder: DFSClient_NONMAPREDUCE_1_1, pending creates: 1]", "hdfs-lease-expired-other"},
		{"file does not exist with a lease H3.4.1 FSNamesystem.checkLease", "java.io.FileNotFoundException: File does not exist: /flink/job/chk-355/1005 (inode 937800469) [Lease.  Holder: DFSClient_NONMAPREDUCE_1_1, pending creates: 4]", "hdfs-file-does-not-exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := Scan(strings.NewReader("noise\n" + tt.line + "\nmore noise\n"))
			if err != nil {
				t.Fatal(err)
			}
			if len(ms) != 1 || ms[0].Pattern.ID != tt.want || ms[0].Line != 2 {
				t.Fatalf("matches = %+v, want one %s on line 2", ms, tt.want)
			}
			if strings.Contains(ms[0].Meaning, "%!") {
				t.Errorf("meaning has a formatting error: %s", ms[0].Meaning)
			}
		})
	}
}

// TestExcerpts recognises the stack traces of three TaskManager log
// excerpts written for this repository (testdata/*.log), in the shape
// Hadoop's DataStreamer and Flink's FsCheckpointStreamFactory log them: a
// minReplication message wrapped onto a second line, a flush timeout, and a
// lease expiry followed by the flush failure it causes.
func TestExcerpts(t *testing.T) {
	want := map[string][]string{
		"small-files-taskmanager.log":   {"hdfs-min-replication-fragment"},
		"flush-timeout-taskmanager.log": {"flink-could-not-flush"},
		"lease-expired-taskmanager.log": {"flink-could-not-flush", "hdfs-lease-expired"},
	}
	recognises(t, "testdata", want)
}

// TestSeeds recognises the failures of the three stories ckptlint exists
// for in the logs of testdata/seeds: NameNode, DataNode, JobManager and
// TaskManager logs written for this repository in the shape the Flink and
// Hadoop releases of testdata/stories print them (testdata/seeds/README.md
// names the upstream source of every message). (a) Tiny checkpoint files
// exhaust the DataNodes' scheduled space: Hadoop 2's "could only be
// replicated to 0 nodes instead of minReplication". (b) A DataNode
// DirectoryScanner holds the dataset lock past a 10 s checkpoint timeout:
// the older "Could not flush and close" wording and Hadoop 3's "File does
// not exist". (c) Overlapping checkpoints are deleted while written: Hadoop
// 2's LeaseExpiredException carrying the lease's own text, and the
// tolerable-failure restart. The DataNode and NameNode lines that prove
// facts are recognised too: (a)'s rejected DataNodes, (b)'s dataset lock
// warning, DirectoryScanner summary and the client's slow acknowledgement.
// Every matching line is listed, so a pattern that starts matching a noise
// line (an audit line, a PacketResponder) fails too, and every log in the
// directory must be listed.
func TestSeeds(t *testing.T) {
	type at struct {
		line int
		id   string
	}
	want := map[string][]at{
		"a-blocksize-namenode.log": {{15, "hdfs-not-enough-space"}, {16, "hdfs-not-enough-space"}, {17, "hdfs-not-enough-space"},
			{19, "hdfs-min-replication"}},
		"a-blocksize-taskmanager.log": {{2, "hdfs-min-replication"}, {19, "flink-could-not-flush"},
			{28, "flink-could-not-flush"}, {38, "hdfs-min-replication"}},
		"b-directoryscanner-datanode.log": {{3, "hdfs-lock-held"}, {20, "hdfs-directoryscanner-summary"}},
		"b-directoryscanner-jobmanager.log": {{3, "flink-checkpoint-expired"}, {17, "flink-could-not-flush"},
			{24, "flink-could-not-flush"}, {32, "hdfs-file-does-not-exist"}},
		"b-directoryscanner-taskmanager.log": {{1, "hdfs-slow-ack"}, {15, "flink-could-not-flush"}, {22, "flink-could-not-flush"},
			{30, "hdfs-file-does-not-exist"}},
		"c-lease-expired-jobmanager.log":  {{1, "flink-checkpoint-expired"}, {3, "flink-tolerable-exceeded"}},
		"c-lease-expired-namenode.log":    {{2, "hdfs-lease-expired"}},
		"c-lease-expired-taskmanager.log": {{2, "flink-could-not-flush"}, {12, "flink-could-not-flush"}, {22, "hdfs-lease-expired"}},
	}
	files, err := filepath.Glob("testdata/seeds/*.log")
	if err != nil || len(files) != len(want) {
		t.Fatalf("testdata/seeds holds %d logs (%v), want the %d listed here", len(files), err, len(want))
	}
	for _, file := range files {
		name := filepath.Base(file)
		w, ok := want[name]
		if !ok {
			t.Errorf("%s: not listed in TestSeeds", name)
			continue
		}
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := Scan(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var got []at
		for _, m := range ms {
			got = append(got, at{m.Line, m.Pattern.ID})
		}
		if !slices.Equal(got, w) {
			t.Errorf("%s: matches %v, want %v", name, got, w)
		}
	}
}

// TestSeedsShared recognises the stack traces of the three failure stories
// as their blog posts in ../shared/seeds print them, prose, unindented
// frames and all (an extra: TestSeeds covers the same patterns from a
// clone alone).
func TestSeedsShared(t *testing.T) {
	dir, _ := filepath.Abs("../../../shared/seeds")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("seeds not found at %s (they live in ../shared beside the repository)", dir)
	}
	want := map[string][]string{
		"story-a-blocksize-small-files.txt":    {"hdfs-min-replication-fragment"},
		"story-b-directoryscanner-timeout.txt": {"flink-could-not-flush"},
		"story-c-lease-expired-tuning.txt":     {"flink-could-not-flush", "hdfs-lease-expired"},
	}
	recognises(t, dir, want)
}

// recognises scans each file of dir and requires the pattern ids listed
// for it among the matches.
func recognises(t *testing.T, dir string, want map[string][]string) {
	t.Helper()
	for file, ids := range want {
		f, err := os.Open(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		ms, err := Scan(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, m := range ms {
			got[m.Pattern.ID] = true
		}
		for _, id := range ids {
			if !got[id] {
				t.Errorf("%s: %s not recognised (got %v)", file, id, got)
			}
		}
	}
}

// TestEvidence: what each DataNode and NameNode message proves for
// .ckptlint.hcl, from one line each.
func TestEvidence(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []Evidence
	}{
		{"BlockPool BP-1-10.0.0.5-1 Total blocks: 98412377, missing metadata files:0, missing block files:0, missing blocks in memory:41, mismatched blocks:0",
			[]Evidence{{"datanode_blocks", 98412377, "BP-1-10.0.0.5-1", "DirectoryScanner BlockPool BP-1-10.0.0.5-1 Total blocks: 98412377"}}},
		{"Lock held time above threshold(300 ms): lock identifier: FsDatasetRWLock lockHeldTimeMs=1204 ms. Suppressed 2 lock warnings. Longest suppressed LockHeldTimeMs=4210. The stack trace is: x",
			[]Evidence{{"write_stall", 4210, "", "Longest suppressed LockHeldTimeMs=4210 (FsDatasetRWLock)"}}},
		{"Lock held time above threshold: lock identifier: org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetImpl lockHeldTimeMs=37204 ms. Suppressed 0 lock warnings. The stack trace is: x",
			[]Evidence{{"write_stall", 37204, "", "lockHeldTimeMs=37204 (org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetImpl)"}}},
		// Another lock than the dataset's holds up no block write.
		{"Lock held time above threshold: lock identifier: org.apache.hadoop.hdfs.server.datanode.BlockPoolSlice lockHeldTimeMs=5000 ms. Suppressed 0 lock warnings. The stack trace is: x", nil},
		{"Slow BlockReceiver write data to disk cost:612ms (threshold=300ms)", []Evidence{{"write_stall", 612, "", "Slow BlockReceiver write data to disk cost: 612ms"}}},
		{"Slow ReadProcessor read fields for block b took 36911ms (threshold=30000ms); ack: x", []Evidence{{"write_stall", 36911, "", "Slow ReadProcessor read fields took 36911ms"}}},
		{"File /f could only be written to 0 of the 1 minReplication nodes. There are 3 datanode(s) running and no node(s) are excluded in this operation.",
			[]Evidence{{"datanodes", 3, "", "3 datanode(s) running"}}},
		{"The node n does not have enough DISK space (required=134217728, scheduled=46170898432, remaining=46036680704).",
			[]Evidence{{"datanode_free_bytes", 46036680704, "", "remaining=46036680704 of a DataNode the NameNode rejected"}}},
		// A count no DataNode can hold (or past an int64) proves nothing, so
		// the block pools of a hostile log cannot add up past an int64.
		{"BlockPool BP-x Total blocks: 9223372036854775807, missing metadata files:0, missing block files:0, missing blocks in memory:0, mismatched blocks:0", nil},
		{"Slow flushOrSync took 99999999999999999999ms (threshold=300ms)", nil},
	} {
		ms, err := Scan(strings.NewReader(tc.line + "\n"))
		if err != nil || len(ms) != 1 {
			t.Fatalf("%q: %v matches, err %v", tc.line, len(ms), err)
		}
		if d := cmp.Diff(tc.want, ms[0].Evidence); d != "" {
			t.Errorf("%s: (-want +got):\n%s", ms[0].Pattern.ID, d)
		}
	}
}

// TestSeedFacts: the facts each seed story's logs prove, ready for
// .ckptlint.hcl (issue 24: story (b)'s DataNode log recognised nothing, yet
// its lock warning and scan summary are the write_stall and datanode_blocks
// CKPT301 asks for).
func TestSeedFacts(t *testing.T) {
	type fact struct {
		attr  string
		value int64
		line  int
		via   string
	}
	want := map[string][]fact{
		"a-blocksize-namenode.log":    {{"datanodes", 3, 19, ""}, {"datanode_free_bytes", 46036680704, 17, ""}},
		"a-blocksize-taskmanager.log": {{"datanodes", 3, 2, ""}},
		"b-directoryscanner-datanode.log": {{"datanode_blocks", 98412377, 20, ""},
			{"write_stall", 37204, 3, "the stack trace shows DirectoryScanner.scan holding it: the scanner stall of HDFS-14476 and HDFS-15415 (CKPT301)"}},
		"b-directoryscanner-taskmanager.log": {{"write_stall", 36911, 1, ""}},
	}
	files, _ := filepath.Glob("testdata/seeds/*.log")
	for _, file := range files {
		name := filepath.Base(file)
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Summarize(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var got []fact
		for _, x := range s.Facts() {
			got = append(got, fact{x.Attr, x.Value, x.Match.Line, x.Match.Via})
		}
		if d := cmp.Diff(want[name], got, cmp.AllowUnexported(fact{})); d != "" {
			t.Errorf("%s: facts (-want +got):\n%s", name, d)
		}
	}
}

// TestFactAggregation: a log's facts are its worst lines: the longest
// stall, the least free space, and the block replicas of every block pool
// of the DataNode added up (each pool's latest count at most once).
func TestFactAggregation(t *testing.T) {
	log := strings.Join([]string{
		"2026-01-01 00:00:00,000 INFO DirectoryScanner: BlockPool BP-a Total blocks: 100, missing metadata files:0, missing block files:0, missing blocks in memory:0, mismatched blocks:0",
		"2026-01-01 00:00:01,000 INFO DirectoryScanner: BlockPool BP-b Total blocks: 50, missing metadata files:0, missing block files:0, missing blocks in memory:0, mismatched blocks:0",
		"2026-01-01 06:00:00,000 INFO DirectoryScanner: BlockPool BP-a Total blocks: 120, missing metadata files:0, missing block files:0, missing blocks in memory:0, mismatched blocks:0",
		"2026-01-01 06:00:02,000 WARN DataNode: Slow BlockReceiver write data to disk cost:900ms (threshold=300ms)",
		"2026-01-01 06:00:03,000 WARN DataNode: Slow flushOrSync took 400ms (threshold=300ms), isSync:true",
		"2026-01-01 06:00:04,000 DEBUG BlockPlacementPolicy: The node a does not have enough DISK space (required=1, scheduled=5, remaining=70).",
		"2026-01-01 06:00:05,000 DEBUG BlockPlacementPolicy: The node b does not have enough DISK space (required=1, scheduled=5, remaining=60).",
	}, "\n")
	s, err := Summarize(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]int64{}
	for _, f := range s.Facts() {
		got[f.Attr] = [2]int64{f.Value, int64(f.Match.Line)}
	}
	want := map[string][2]int64{"datanode_blocks": {170, 3}, "write_stall": {900, 4}, "datanode_free_bytes": {60, 7}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if f := s.Facts()[1]; f.Attr != "datanode_blocks" || f.Keys != 2 || f.Lines != 3 {
		t.Errorf("datanode_blocks over %d pools from %d lines", f.Keys, f.Lines)
	}
}
