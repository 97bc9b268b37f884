package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/spf13/cobra"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/text/unicode/norm"

	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/safetext"
	"github.com/ckptlint/ckptlint/lint"
	"github.com/ckptlint/ckptlint/write"
)

func newInitCmd(g *globals) *cobra.Command {
	var toStdout bool
	cmd := &cobra.Command{
		Use:   "init [paths...]",
		Short: "Write a commented .ckptlint.hcl from the configuration found under paths",
		Long: `init discovers the config sets under paths (default: the current directory) and writes
.ckptlint.hcl in the current directory: one deployment block per Flink configuration with the
Hadoop directory it reads, the Flink and Hadoop versions found in the repository and where, and a
cluster block whose facts are commented placeholders, each saying which rules it changes.
Nothing is declared that the files do not show: uncomment and fill in what you know.

It refuses to overwrite an existing .ckptlint.hcl; --print writes to standard output instead.`,
		Example: `  ckptlint init
  ckptlint init --print jobs/ hadoop/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !toStdout {
				if _, err := os.Lstat(config.FileName); err == nil {
					return usageErr(fmt.Errorf("%s already exists: not overwriting it (ckptlint init --print writes to standard output)", config.FileName))
				} else if !errors.Is(err, fs.ErrNotExist) {
					return usageErr(err)
				}
			}
			// Discovery without a .ckptlint.hcl: what the files alone tell.
			opts := g.options(nil)
			sets, _, err := lint.Discover(args, opts)
			if err != nil {
				return usageErr(err)
			}
			if len(sets) == 0 {
				return usageErr(errors.New("no Flink or Hadoop configuration file found: nothing to describe"))
			}
			src := initFile(sets)
			if toStdout {
				_, err := g.stdout.Write(src)
				return err
			}
			// The writer fix uses: staged, fsynced, renamed into place (so
			// no half-written file is ever read), refused if the file
			// appeared meanwhile.
			wd, err := os.Getwd()
			if err != nil {
				return usageErr(err)
			}
			if err := write.All([]write.Change{{Path: filepath.Join(wd, config.FileName), New: src, Mode: 0o644}}, wd); err != nil {
				return usageErr(err)
			}
			fmt.Fprintf(g.stderr, "ckptlint: wrote %s (%d deployment block(s)); review it, then run ckptlint lint\n", config.FileName, countDeployments(sets))
			return nil
		},
	}
	cmd.Flags().BoolVar(&toStdout, "print", false, "write the file to standard output instead of .ckptlint.hcl")
	return cmd
}

func countDeployments(sets []*model.Set) int {
	n := 0
	for _, s := range sets {
		if s.Flink != nil {
			n++
		}
	}
	return n
}

// initFile renders .ckptlint.hcl for the discovered sets. Paths are the
// display paths, relative to the working directory, which is where the file
// goes (and what its relative paths are resolved against). Every string
// is written by hclString and every comment that quotes a name or a value
// by hclComment: a directory name is text from the repository, and must
// not become a line, a template or an escape of the file.
func initFile(sets []*model.Set) []byte {
	var b bytes.Buffer
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("# .ckptlint.hcl written by `ckptlint init` (reference: docs/config.md).\n")
	w("# Every value below was found in the repository; every commented line is a fact ckptlint\n")
	w("# cannot read from the files. Uncomment and fill in what you know: a rule that needs a\n")
	w("# missing fact reports an info naming it instead of a finding.\n\n")

	w("# Facts about the HDFS and Flink cluster the jobs run on.\n")
	w("cluster \"main\" {\n")
	for _, f := range clusterFacts {
		w("  # %s\n  # %s\n", f.what, f.example)
	}
	if hv := hadoopVersion(sets); hv != "" {
		w("  %s\n", hv)
	}
	w("}\n")

	names := map[string]int{}
	for _, s := range sets {
		if s.Flink == nil {
			continue
		}
		if s.Deployed != nil {
			deployedComment(w, s)
			continue
		}
		if !norm.NFC.IsNormalString(s.Flink.Path) {
			notNFC(w, s)
			continue
		}
		name := blockName(s.Name)
		names[name]++
		if n := names[name]; n > 1 {
			name += "-" + strconv.Itoa(n)
		}
		w("\n%s\n", hclComment("Config set "+s.Name+"."))
		w("deployment %s {\n", hclString(name))
		w("  flink_conf = %s\n", hclString(s.Flink.Path))
		if dir := hadoopDir(s); dir != "" && !norm.NFC.IsNormalString(dir) {
			w("  %s\n", hclComment("hadoop_conf not declared: "+nfcReason(dir)))
		} else if dir != "" {
			w("  hadoop_conf = %s %s\n", hclString(dir), hclComment("the core-site.xml / hdfs-site.xml Flink's HDFS client reads ("+via(s)+")"))
		} else if dirs := hadoopOnly(sets); len(dirs) > 0 {
			w("  # hadoop_conf = %s %s\n", hclString(dirs[0]),
				hclComment("none found for it; the directory HADOOP_CONF_DIR holds at run time. Hadoop directories found: "+strings.Join(dirs, ", ")))
		} else {
			w("  # hadoop_conf = \"hadoop/conf\" # none found for it: the directory HADOOP_CONF_DIR holds at run time\n")
		}
		w("  # cluster_hdfs_site = \"hadoop/cluster/hdfs-site.xml\" # the NameNode/DataNode hdfs-site.xml, if the repository has it (CKPT102, CKPT301-CKPT303)\n")
		w("  cluster = \"main\"\n")
		w("  %s\n", versionLine("flink_version", "Flink", s.FlinkVersion, "1.20"))
		for _, f := range deploymentFacts {
			w("  # %s\n  # %s\n", f.what, f.example)
		}
		w("}\n")
	}
	for _, s := range sets {
		if s.Flink == nil {
			w("\n%s\n", hclComment(s.Name+": Hadoop files no Flink configuration reads; they are linted on their own."))
		}
	}
	return b.Bytes()
}

// deployedComment writes what the deployment model found for a set read
// from the repository's deployment files (docs/deployment.md): no block,
// since those files already say it and a deployment block names a Flink
// configuration file, never a compose file or a ConfigMap.
// notNFC writes, for the config set s whose Flink file's path is not in
// Unicode normal form C, why no deployment is declared for it: HCL reads
// every string literal in that form (hclsyntax, as cty.StringVal makes
// every string), so a flink_conf naming it would name another path (a
// directory created on macOS holds "é" as "e" and U+0301).
func notNFC(w func(string, ...any), s *model.Set) {
	w("\n%s\n", hclComment("Config set "+s.Name+": not declared."))
	w("%s\n", hclComment("  "+nfcReason(s.Flink.Path)))
}

// nfcReason says why path cannot be named in .ckptlint.hcl.
func nfcReason(path string) string {
	return "the path " + path + " is not in Unicode normal form C, and HCL reads every string in that form, so .ckptlint.hcl would name another path: rename it to declare it"
}

func deployedComment(w func(string, ...any), s *model.Set) {
	d := s.Deployed
	w("\n%s\n", hclComment("Config set "+s.Name+": read from the deployment files, nothing to declare."))
	var procs []string
	for _, p := range d.Processes {
		at := ""
		if p.Loc != nil {
			at = fmt.Sprintf(" (%s:%d)", p.Loc.File, p.Loc.Span.Start.Line)
		}
		procs = append(procs, fmt.Sprintf("%s ×%d%s", p.Name, p.Replicas, at))
	}
	w("%s\n", hclComment("  processes: "+strings.Join(procs, ", ")))
	switch {
	case d.FlinkChain != "":
		w("%s\n", hclComment("  Flink configuration: "+s.Flink.Path+", "+d.FlinkChain))
	case s.Flink.Embed != nil:
		w("%s\n", hclComment(fmt.Sprintf("  Flink configuration: written in %s:%d", s.Flink.Path, s.Flink.Embed.Line)))
	}
	switch {
	case d.HadoopChain != "":
		w("%s\n", hclComment("  Hadoop files: "+d.HadoopDir+", "+d.HadoopChain))
	case d.HadoopMissing != "":
		w("%s\n", hclComment("  Hadoop files: "+d.HadoopMissing))
	}
	if d.Image != "" {
		w("%s\n", hclComment("  image: "+d.Image))
	}
	w("%s\n", hclComment("  "+s.FlinkVersion.Text("Flink")))
}

type fact struct{ what, example string }

// The facts rules ask for (docs/config.md), with the rules they change.
var clusterFacts = []fact{
	{"DataNodes in the cluster: CKPT101 (blocks each can schedule), CKPT402 (replication), CKPT403 (replace-datanode on small clusters).", "datanodes = 3"},
	{"Free space per DataNode: CKPT101 (concurrent checkpoint files at the block size), CKPT105.", "datanode_free_bytes = \"43g\""},
	{"Block replicas per DataNode: CKPT301 (DirectoryScanner lock stall), CKPT302.", "datanode_blocks = 2000000"},
	{"NameNode dfs.namenode.fs-limits.min-block-size, when no cluster hdfs-site.xml says it: CKPT102.", "min_block_size = \"1m\""},
	{"Worst HDFS write stall observed: CKPT201 (checkpoint timeout), CKPT205, CKPT301.", "write_stall = \"40s\""},
	{"Other concurrent HDFS writers per DataNode: CKPT101.", "other_writers = 0"},
}

var deploymentFacts = []fact{
	{"Jobs sharing the cluster with this configuration (default 1): CKPT101, CKPT503.", "jobs = 4"},
	{"Stateful operators per job (default 1): CKPT101 (checkpoint files in flight).", "stateful_operators = 5"},
	{"Job parallelism, when not parallelism.default: CKPT101, CKPT401.", "parallelism = 12"},
	{"This Flink cluster's TaskManagers and slots (ckptlint facts reads them from its JobManager or FlinkDeployment): CKPT401 (parallelism above the slots), CKPT502.", "taskmanagers = 3\n  # slots_per_taskmanager = 4"},
	{"Observed p99 checkpoint duration: CKPT201 (timeout), CKPT205.", "checkpoint_p99 = \"90s\""},
}

// versionLine is a commented version line saying what the repository
// shows: a pinned version is read from there already (declaring it only
// overrides it), a lower bound or nothing is a placeholder.
func versionLine(attr, product string, r model.Resolved, example string) string {
	v := r.Raw
	if v == "" && !r.Version.IsZero() {
		v = r.Version.String()
	}
	switch {
	case r.Known():
		return fmt.Sprintf("# %s = %s %s", attr, hclString(v), hclComment("found: "+r.Where+"; ckptlint reads it from there, declare it only to override"))
	case r.Source == "evidence":
		return fmt.Sprintf("# %s = %s %s", attr, hclString(example), hclComment("at least "+v+" ("+r.Why+"); the exact "+product+" version decides which keys and defaults apply"))
	}
	return fmt.Sprintf("# %s = %s # not found in the repository: without it, version-dependent findings are info and fix holds their edits back", attr, hclString(example))
}

// hadoopVersion is the cluster's hadoop_version line from the first set
// whose Hadoop version the repository shows, else a placeholder.
func hadoopVersion(sets []*model.Set) string {
	for _, s := range sets {
		if s.HadoopVersion.Known() || s.HadoopVersion.Source == "evidence" {
			return versionLine("hadoop_version", "Hadoop", s.HadoopVersion, "3.3.6")
		}
	}
	return versionLine("hadoop_version", "Hadoop", model.Resolved{Source: "unknown"}, "3.3.6") + "\n  # (CKPT301: which DirectoryScanner fixes the DataNodes have)"
}

// hadoopDir is the directory of the client Hadoop files Flink reads last
// (HADOOP_CONF_DIR), "" when there are none.
func hadoopDir(s *model.Set) string {
	for i := len(s.Client) - 1; i >= 0; i-- {
		if s.Client[i].Via != "cluster" && s.Client[i].Dir != "" {
			return s.Client[i].Dir
		}
	}
	return ""
}

// hadoopOnly lists the directories of Hadoop files no Flink file reads:
// the candidates for a hadoop_conf or cluster_hdfs_site.
func hadoopOnly(sets []*model.Set) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range sets {
		if s.Flink != nil {
			continue
		}
		for _, c := range s.Client {
			if c.Dir != "" && !seen[c.Dir] {
				seen[c.Dir] = true
				out = append(out, c.Dir)
			}
		}
	}
	return out
}

func via(s *model.Set) string {
	for i := len(s.Client) - 1; i >= 0; i-- {
		switch s.Client[i].Via {
		case "same-dir":
			return "beside the Flink file"
		case "fs.hdfs.hadoopconf", "env.hadoop.conf.dir":
			return "named by " + s.Client[i].Via
		case "deployment":
			return "declared"
		}
	}
	return "found"
}

// blockName turns a set name (a directory) into a block label.
func blockName(name string) string {
	name = strings.Trim(path.Clean(strings.ReplaceAll(name, "\\", "/")), "./")
	if name == "" {
		return "main"
	}
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

// hclString is s as an HCL string literal, as hclwrite writes one
// (TokensForValue): quotes, backslashes and line breaks escaped, ${ and %{
// doubled so that no template sequence is read, other non-printing
// characters as \uXXXX.
func hclString(s string) string {
	return string(hclwrite.TokensForValue(cty.StringVal(s)).Bytes())
}

// hclComment is text as a # comment on one line: what safetext.Text
// escapes (a newline among them) shown as an escape, so that the comment
// cannot end before the line does, and runs of spaces folded.
func hclComment(s string) string {
	return "# " + strings.Join(strings.Fields(safetext.Text(s)), " ")
}
