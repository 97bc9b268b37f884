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
}

// Match is one recognised line.
type Match struct {
	Line    int
	Text    string
	Pattern *Pattern
	Meaning string
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
		},
		{
			ID:    "hdfs-min-replication-fragment",
			Title: "HDFS could not place a block on any DataNode",
			Re:    regexp.MustCompile(`There are (\d+) datanode\(s\) running and (no|\d+) node\(s\) are excluded`),
			Meaning: "The NameNode rejected every running DataNode for a new block; with DataNodes running and none excluded, the usual cause " +
				"is scheduled space: each in-flight block reserves dfs.blocksize on a DataNode.",
			Rules: []string{"CKPT101"},
			Keys:  []string{"dfs.blocksize"},
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
			ID:    "hdfs-file-does-not-exist",
			Title: "A checkpoint file's directory was deleted while a task still wrote it (Hadoop 3 wording)",
			Re:    regexp.MustCompile(`File does not exist: (\S+).*does not have any open files`),
			Meaning: "The NameNode no longer knows %[1]s: Flink deleted the checkpoint directory (an expired or subsumed checkpoint's chk-N) " +
				"while a TaskManager was still writing into it.",
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
			ID:      "flink-boolean",
			Title:   "A boolean setting is not true or false",
			Re:      regexp.MustCompile(`Unrecognized option for boolean: (\S+)\. Expected either true or false`),
			Meaning: "Flink accepts only true or false; %[1]q (YAML 1.1 style yes/on) is refused.",
			Rules:   []string{"CKPT602"},
		},
	}
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
	var out []Match
	_, err := each(r, func(m Match) { out = append(out, m) })
	return out, err
}

// Summary is what a log holds of the known failures, in memory bounded by
// the catalogue, whatever the log's size: the first line matching each
// pattern, in the order they first appear, and how many lines match each.
type Summary struct {
	First []Match
	Count map[string]int // by Pattern.ID
	// Lines is the number of lines read; Clipped how many of them were
	// longer than MaxLine (matched on their start), the first at line
	// FirstClipped.
	Lines, Clipped, FirstClipped int
}

// Summarize reads r line by line, keeping only what Summary holds (issue
// 25: a 984 MB log whose every line matched used 1.27 GB when every match
// was kept). On a read error it returns what it read before the error.
func Summarize(r io.Reader) (*Summary, error) {
	s := &Summary{Count: map[string]int{}}
	st, err := each(r, func(m Match) {
		if s.Count[m.Pattern.ID] == 0 {
			s.First = append(s.First, m)
		}
		s.Count[m.Pattern.ID]++
	})
	s.Lines, s.Clipped, s.FirstClipped = st.lines, st.clipped, st.firstClipped
	return s, err
}

// scanStats are what each counts of the lines it read.
type scanStats struct{ lines, clipped, firstClipped int }

// each reads r line by line (a line over MaxLine matched on its first
// MaxLine bytes) and calls match for each recognised one.
func each(r io.Reader, match func(Match)) (scanStats, error) {
	var st scanStats
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
			return st, fmt.Errorf("line %d: %w", st.lines+1, err)
		}
		line := chunk
		if len(long) > 0 {
			long = append(long, chunk...)
			line = long
		}
		if len(line) > 0 || over {
			st.lines++
			matchLine(string(line), st.lines, match)
		}
		long, over = long[:0], false
		if cap(long) > 4*br.Size() {
			long = nil // let a very long line's buffer go
		}
		if errors.Is(err, io.EOF) {
			return st, nil
		}
	}
}

// matchLine tries the patterns on one line, n its number.
func matchLine(line string, n int, match func(Match)) {
	line = strings.TrimRight(line, "\r\n")
	for _, p := range Patterns() {
		m := p.Re.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		match(Match{Line: n, Text: clip(strings.TrimSpace(line), maxText), Pattern: p, Meaning: expand(p.Meaning, m[1:])})
		return
	}
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
