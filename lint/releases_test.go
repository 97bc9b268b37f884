package lint_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/lint"
)

// ruleReleases is the range of Flink releases each rule claims (issue 23:
// "a sentence that is true only from release X must only be said from X"):
// the oldest and the newest release it can report for, with why. Every
// embedded rule has a row.
var ruleReleases = map[string]struct {
	oldest, newest string
	why            string
	// raw: the fixture is run as written, not respelled for the release
	// (the rules about key spellings themselves).
	raw bool
}{
	"CKPT101": {"1.10", "2.3", "HDFS scheduling of the files of periodic checkpoints, which the configuration turns on from 1.10 (execution.checkpointing.interval, FLINK-14788; before, the job's code does)", false},
	"CKPT102": {"0.9", "2.3", "the NameNode's minimum block size (Hadoop), any Flink release", false},
	"CKPT103": {"0.9", "2.3", "Hadoop's checksum check, any Flink release", false},
	"CKPT104": {"0.9", "2.3", "Hadoop's size syntax, any Flink release", false},
	"CKPT105": {"0.9", "2.3", "the NameNode's block limit; full snapshots write a subtask's state as one file", false},
	"CKPT106": {"1.5", "2.3", "Flink ignores a threshold above 1 MiB with a WARN from 1.5 (FsStateBackend; 1.0 to 1.4 refuse it, which the rule also says)", false},
	"CKPT107": {"1.10", "2.3", "small checkpoint files of periodic checkpoints: the interval is a key from 1.10 (FLINK-14788)", false},
	"CKPT108": {"1.6", "1.20", "fs.hdfs.hadoopconf and env.hadoop.conf.dir together: env.hadoop.conf.dir from 1.6, fs.hdfs.hadoopconf until 2.0", false},
	"CKPT109": {"0.9", "2.3", "the client's dfs.blocksize from the files Flink's HDFS client loads", false},
	"CKPT110": {"0.9", "1.12", "flink.hadoop.* is read from 1.13 (FLINK-16005)", false},
	"CKPT111": {"1.6", "2.3", "env.hadoop.conf.dir from 1.6 (FLINK-6222)", false},
	"CKPT201": {"1.10", "2.3", "execution.checkpointing.timeout from 1.10 (FLINK-14788)", false},
	"CKPT202": {"1.10", "2.3", "execution.checkpointing.* from 1.10 (FLINK-14788)", false},
	"CKPT203": {"1.10", "2.3", "execution.checkpointing.* from 1.10 (FLINK-14788)", false},
	"CKPT204": {"1.10", "2.3", "execution.checkpointing.* from 1.10 (FLINK-14788)", false},
	"CKPT205": {"1.10", "2.3", "execution.checkpointing.tolerable-failed-checkpoints from 1.10 (FLINK-14788)", false},
	"CKPT206": {"1.10", "2.3", "Duration options from 1.10 (execution.checkpointing.*, FLINK-14788)", false},
	"CKPT207": {"1.10", "2.3", "Duration options from 1.10 (execution.checkpointing.*, FLINK-14788)", false},
	"CKPT208": {"1.10", "2.3", "execution.checkpointing.timeout from 1.10 (FLINK-14788)", false},
	"CKPT301": {"1.10", "2.3", "the DataNode scan stall against execution.checkpointing.timeout (1.10)", false},
	"CKPT302": {"0.9", "2.3", "the DataNode scanner's throttle (Hadoop), any Flink release", false},
	"CKPT303": {"0.9", "2.3", "the DataNode scanner's interval (Hadoop), any Flink release", false},
	"CKPT401": {"0.9", "2.3", "task slots and parallelism (taskmanager.numberOfTaskSlots, parallelism.default from 0.9)", false},
	"CKPT402": {"0.9", "2.3", "HDFS replication of checkpoint files", false},
	"CKPT403": {"0.9", "2.3", "the HDFS client's pipeline recovery", false},
	"CKPT404": {"0.9", "2.3", "the HDFS client's pipeline recovery policy", false},
	"CKPT501": {"1.10", "2.3", "checkpointing on without a directory: periodic checkpoints from the configuration from 1.10", false},
	"CKPT502": {"0.9", "2.3", "a checkpoint directory on local disk", false},
	"CKPT503": {"1.19", "2.3", "state.checkpoints.create-subdir from 1.19 (FLINK-33057)", false},
	"CKPT504": {"1.5", "2.3", "state.backend.incremental from 1.5 (FLINK-7925)", false},
	"CKPT505": {"1.10", "2.3", "full RocksDB checkpoints at the configured interval (execution.checkpointing.interval from 1.10; state.backend.incremental from 1.5)", false},
	"CKPT506": {"1.13", "2.3", "the backend names of FLIP-142 (hashmap, 1.13)", false},
	"CKPT507": {"1.3", "2.3", "state.checkpoints.num-retained from 1.3 (FLINK-4754)", false},
	"CKPT508": {"0.10", "2.3", "JobManager high availability from 0.10 (FLINK-2291)", false},
	"CKPT509": {"1.11", "1.15", "the application-mode job ID collision of 1.11 to 1.15", false},
	"CKPT510": {"1.10", "1.20", "the memory backend with periodic checkpoints (1.10); 2.0 dropped the jobmanager backend", false},
	"CKPT511": {"0.9", "2.3", "an hdfs:/// path without authority", false},
	"CKPT512": {"1.8", "2.3", "no Flink distribution bundles Hadoop from 1.8 (apache/flink-docker 89abc4a); the classpath is read from the deployed image", false},
	"CKPT513": {"0.9", "2.3", "HDFS's path check (DFSUtilClient.isValidName), any Flink release", false},
	"CKPT601": {"0.9", "1.20", "flink-conf.yaml's legacy parser, which 2.0 no longer reads", false},
	"CKPT602": {"1.19", "2.3", "config.yaml is read from 1.19 (FLINK-33364)", true},
	"CKPT603": {"0.9", "2.3", "which of flink-conf.yaml and config.yaml a release reads", true},
	"CKPT604": {"0.9", "2.3", "the key catalogue's releases (internal/model/flinkkeys.go)", true},
	"CKPT605": {"1.5", "2.3", "fs.hdfs.hadoopconf deprecated from 1.5 (FLINK-7967), removed in 2.0 (FLINK-34085)", true},
	"CKPT606": {"1.5", "2.3", "value syntax of the typed catalogued keys (lenient before 1.10, refused from 1.10); the fixture's oldest key is state.backend.incremental (1.5)", false},
	"CKPT607": {"0.9", "2.3", "deprecated Hadoop key names (Hadoop), any Flink release", false},
	"CKPT608": {"0.9", "2.3", "the option table's releases (internal/model/flinkoptions*_gen.go)", true},
	"CKPT609": {"0.9", "2.3", "the age of facts, any release", false},
	"CKPT610": {"1.10", "2.3", "the running job's checkpointing against the configuration's (execution.checkpointing.*, 1.10)", false},
}

// TestRuleReleaseRange runs every rule's bad fixture at the oldest and the
// newest Flink release the rule claims (ruleReleases), with the Flink keys
// of flink-conf.yaml rewritten to the spelling that release reads
// (model.SpellingFor; a key it reads no spelling of is left out), and
// checks that the rule reports there and that what it says holds for that
// release: every catalogued Flink key a message names or a fix writes is a
// key the release reads, unless the message says the release does not read it.
func TestRuleReleaseRange(t *testing.T) {
	eng := linttest.Engine(t)
	root, _ := filepath.Abs("../testdata/rules")
	for _, r := range eng.Rules() {
		want, ok := ruleReleases[r.ID]
		if !ok {
			t.Errorf("%s has no row in ruleReleases: add the releases it claims", r.ID)
			continue
		}
		for _, rel := range []string{want.oldest, want.newest} {
			t.Run(r.ID+"@"+rel, func(t *testing.T) {
				v, err := model.ParseVersion(rel)
				if err != nil {
					t.Fatal(err)
				}
				dir := t.TempDir()
				// testdata/rules/<ID>/oldest is the fixture of the oldest
				// release when the bad one cannot be respelled for it.
				if oldest := filepath.Join(root, r.ID, "oldest"); rel == want.oldest && isDir(oldest) {
					linttest.CopyTree(t, oldest, dir, nil)
				} else {
					linttest.CopyTree(t, filepath.Join(root, r.ID, "bad"), dir, nil)
					if !want.raw {
						respell(t, dir, v)
					}
				}
				res := linttest.Lint(t, eng, dir, lint.Options{Versions: lint.Versions{Flink: rel}})
				var mine []finding.Finding
				for _, f := range res.Findings {
					if f.RuleID == r.ID {
						mine = append(mine, f)
					}
				}
				if len(mine) == 0 {
					t.Fatalf("%s does not report on Flink %s (it claims %s to %s: %s); got:\n%s", r.ID, rel, want.oldest, want.newest, want.why, textOf(t, res.Findings))
				}
				for _, f := range mine {
					checkTrue(t, f, v)
				}
			})
		}
	}
}

// respell rewrites the Flink keys of the fixture in dir to the spelling
// Flink v reads (model.SpellingFor), leaving out keys it reads no spelling
// of: the "key: value" lines of flink-conf.yaml, and config.yaml flattened
// to one "key: value" line per leaf, written back as config.yaml from 1.19
// and as flink-conf.yaml before (the file those releases read).
func respell(t *testing.T, dir string, v model.Version) {
	t.Helper()
	spell := func(k string) (string, bool) {
		s, catalogued := model.SpellingFor(k, v)
		if !catalogued {
			return k, true
		}
		return s, s != ""
	}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch d.Name() {
		case "flink-conf.yaml":
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			var out []string
			sc := bufio.NewScanner(strings.NewReader(string(b)))
			for sc.Scan() {
				line := sc.Text()
				if k, rest, found := strings.Cut(line, ": "); found && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, " ") {
					s, ok := spell(k)
					if !ok {
						continue
					}
					line = s + ": " + rest
				}
				out = append(out, line)
			}
			return os.WriteFile(p, []byte(strings.Join(out, "\n")+"\n"), 0o644)
		case "config.yaml":
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			var doc yaml.Node
			if err := yaml.Unmarshal(b, &doc); err != nil || len(doc.Content) == 0 {
				return err
			}
			var lines []string
			flatten(doc.Content[0], "", func(k string, n *yaml.Node) {
				s, ok := spell(k)
				if !ok {
					return
				}
				lines = append(lines, s+": "+scalarText(n))
			})
			target := p
			if v.Less(model.V(1, 19)) {
				target = filepath.Join(filepath.Dir(p), "flink-conf.yaml")
				if err := os.Remove(p); err != nil {
					return err
				}
				if err := renameInConfig(filepath.Join(dir, ".ckptlint.hcl")); err != nil {
					return err
				}
			}
			return os.WriteFile(target, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// flatten calls leaf for every scalar or sequence below n with its dotted
// key, as Flink flattens config.yaml (YamlParserUtils.flatten).
func flatten(n *yaml.Node, prefix string, leaf func(string, *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		leaf(prefix, n)
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		if prefix != "" {
			k = prefix + "." + k
		}
		flatten(n.Content[i+1], k, leaf)
	}
}

// scalarText is a value as written: quotes kept, a sequence in flow style.
func scalarText(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.SequenceNode:
		var items []string
		for _, c := range n.Content {
			items = append(items, scalarText(c))
		}
		return "[" + strings.Join(items, ", ") + "]"
	case n.Style&yaml.DoubleQuotedStyle != 0:
		return strconv.Quote(n.Value)
	case n.Style&yaml.SingleQuotedStyle != 0:
		return "'" + strings.ReplaceAll(n.Value, "'", "''") + "'"
	}
	return n.Value
}

// renameInConfig points a fixture's .ckptlint.hcl at flink-conf.yaml where
// it named config.yaml.
func renameInConfig(p string) error {
	b, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return os.WriteFile(p, []byte(strings.ReplaceAll(string(b), "config.yaml", "flink-conf.yaml")), 0o644)
}

var (
	keyToken = regexp.MustCompile(`[a-z][a-zA-Z0-9-]*(\.[a-zA-Z0-9-]+)+`)
	// notReadPhrase is how a message says a release does not read a key.
	notReadPhrase = regexp.MustCompile(`does not read|not read|exists from|read from|only from|removed|ignores|before|from Flink|from 1\.|from 2\.|is not an option|older|newer|\(Flink 1\.x\)`)
)

// checkTrue fails when f names a catalogued Flink key that release v does
// not read without saying so, or writes one.
func checkTrue(t *testing.T, f finding.Finding, v model.Version) {
	t.Helper()
	// The headline is held to it alone: it is what an annotation or a
	// compact report shows.
	for _, text := range []string{f.Message, f.Detail} {
		for _, sent := range regexp.MustCompile(`[.;] `).Split(text, -1) {
			for _, k := range keyToken.FindAllString(sent, -1) {
				k = strings.TrimSuffix(k, ".")
				if read, known := model.FlinkReads(k, v); !known || read {
					continue
				}
				if notReadPhrase.MatchString(sent) || strings.Contains(text, "does not read "+k) {
					continue
				}
				t.Errorf("%s on Flink %s names %s, which that release does not read, without saying so: %q", f.RuleID, v, k, sent)
			}
		}
	}
	for _, op := range f.Fix {
		if op.Target != "flink" || op.Op == "delete" {
			continue
		}
		k := op.Key
		if op.Op == "rename" {
			k = op.NewKey
		}
		if read, known := model.FlinkReads(k, v); known && !read {
			t.Errorf("%s on Flink %s: fix %s writes %s, which that release does not read", f.RuleID, v, op.Op, k)
		}
	}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
