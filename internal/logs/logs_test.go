package logs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
// tolerable-failure restart. Every matching line is listed, so a pattern
// that starts matching a noise line (a lock warning, an audit line) fails
// too, and every log in the directory must be listed.
func TestSeeds(t *testing.T) {
	type at struct {
		line int
		id   string
	}
	want := map[string][]at{
		"a-blocksize-namenode.log": {{19, "hdfs-min-replication"}},
		"a-blocksize-taskmanager.log": {{2, "hdfs-min-replication"}, {19, "flink-could-not-flush"},
			{28, "flink-could-not-flush"}, {38, "hdfs-min-replication"}},
		"b-directoryscanner-datanode.log": nil,
		"b-directoryscanner-jobmanager.log": {{3, "flink-checkpoint-expired"}, {17, "flink-could-not-flush"},
			{24, "flink-could-not-flush"}, {32, "hdfs-file-does-not-exist"}},
		"b-directoryscanner-taskmanager.log": {{15, "flink-could-not-flush"}, {22, "flink-could-not-flush"},
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
