package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ckptlint/ckptlint/facts"
	"github.com/ckptlint/ckptlint/fix"
	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/logs"
	"github.com/ckptlint/ckptlint/write"
)

type factsOptions struct {
	cluster, deployment  string
	namenode, jobmanager string
	job, caFile, now     string
	fromLog              []string
	dryRun               bool
	timeout, connect     time.Duration
	maxBytes, maxLog     int64
}

func newFactsCmd(g *globals) *cobra.Command {
	var o factsOptions
	cmd := &cobra.Command{
		Use:   "facts [SOURCE|- ...]",
		Short: "Read cluster and job facts from the NameNode, dfsadmin, the Flink REST API or kubectl into .ckptlint.hcl",
		Long: `facts reads the numbers ckptlint's capacity and timing rules need from the systems
themselves and writes them into .ckptlint.hcl (the file --config names, else the nearest one,
else a new one in the current directory), each value followed by a comment naming its source
and date, and one facts "<kind>" block per source saying what it wrote and when.

Sources, each a file, - for standard input, or an explicit URL (detected from the content):
  NameNode JMX JSON (/jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo), or --namenode URL
  hdfs dfsadmin -report output
  Flink REST /overview, /jobs/<id>/checkpoints, /jobs/<id>/checkpoints/config,
    /jobs/<id>/checkpoints/details/<checkpoint>/subtasks/<vertex>, or --jobmanager URL
  kubectl get flinkdeployment NAME -o yaml (or -o json)
  --from-log FILE: a DataNode, NameNode or Flink log, plain or .gz (see ckptlint explain --log):
    the DirectoryScanner's block replicas, a dataset lock held or a slow write, the DataNodes
    and free space of a block the NameNode could not place

HDFS facts (DataNodes, free space, blocks, the DataNodes' version) go into the cluster block,
Flink facts (TaskManagers, slots, parallelism, checkpoint statistics) into the deployment block
of the Flink cluster they were read from. Capacity facts are the worst DataNode that accepts writes (least remaining space, most blocks),
with min/median/max in the comment. Everything else in the file keeps its bytes. --dry-run prints
the diff and writes nothing. Network is used only for --namenode and --jobmanager: GET requests,
with timeouts and a size limit, TLS verified (--ca-file adds a private CA), no credentials in URLs,
no Kerberos/SPNEGO (see docs/facts.md).`,
		Example: `  curl -s 'http://nn:9870/jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo' > nn.json
  ckptlint facts --cluster prod nn.json
  hdfs dfsadmin -report | ckptlint facts --dry-run -
  ckptlint facts --cluster prod --deployment orders --jobmanager https://flink.example.com --ca-file ca.pem
  ckptlint facts --cluster prod --from-log hadoop-hdfs-datanode-dn1.log --from-log hadoop-hdfs-datanode-dn2.log.1.gz`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFacts(cmd.Context(), g, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.cluster, "cluster", "", `cluster block to write HDFS facts into (default: the deployment's cluster, else the file's only cluster block, else "main")`)
	f.StringVar(&o.deployment, "deployment", "", "deployment block to write Flink facts into: TaskManagers, slots, parallelism, checkpoint statistics (default: the file's only deployment block)")
	f.BoolVar(&o.dryRun, "dry-run", false, "print the change as a unified diff and write nothing")
	f.StringVar(&o.namenode, "namenode", "", "NameNode HTTP(S) address to GET the JMX beans from, e.g. http://nn:9870")
	f.StringVar(&o.jobmanager, "jobmanager", "", "Flink JobManager REST address, e.g. http://jm:8081")
	f.StringVar(&o.job, "job", "", "Flink job id for the checkpoint facts (default with --jobmanager: the one RUNNING job)")
	f.StringVar(&o.caFile, "ca-file", "", "PEM file of CA certificates to trust besides the system roots (private CAs)")
	f.DurationVar(&o.timeout, "timeout", facts.DefaultTimeout, "total time allowed for each HTTP request")
	f.DurationVar(&o.connect, "connect-timeout", facts.DefaultConnectTimeout, "time allowed to connect (TCP and TLS) for each HTTP request")
	f.Int64Var(&o.maxBytes, "max-response-bytes", facts.DefaultMaxBytes, "largest response or source file accepted, in bytes")
	f.StringArrayVar(&o.fromLog, "from-log", nil, "a DataNode, NameNode or Flink log (plain or .gz; - for standard input) whose lines prove cluster facts; repeatable, the worst over the logs is written")
	f.Int64Var(&o.maxLog, "max-log-bytes", logs.DefaultMaxDecompressed, "most bytes a gzip-compressed --from-log log may decompress to")
	f.StringVar(&o.now, "now", "", "date to record, RFC 3339 (for reproducible tests)")
	_ = f.MarkHidden("now")
	return cmd
}

func runFacts(ctx context.Context, g *globals, o factsOptions, args []string) error {
	if len(args) == 0 && o.namenode == "" && o.jobmanager == "" && len(o.fromLog) == 0 {
		return usageErr(errors.New("nothing to read: name a SOURCE file, - for standard input, --namenode URL, --jobmanager URL or --from-log FILE"))
	}
	if o.job != "" && !facts.ValidJobID(o.job) {
		return usageErr(fmt.Errorf("--job %q: a Flink job id is 32 hexadecimal digits", o.job))
	}
	now := time.Now()
	if o.now != "" {
		t, err := time.Parse(time.RFC3339, o.now)
		if err != nil {
			return usageErr(fmt.Errorf("--now: %v", err))
		}
		now = t
	}
	path := g.configPath
	if path == "" {
		path = config.FileName
		if p, ok := config.Find(".", repoRoot(".")); ok {
			path = p
		}
	}
	display := path
	if wd, err := os.Getwd(); err == nil && filepath.IsAbs(path) {
		if rel, err := filepath.Rel(wd, path); err == nil && filepath.IsLocal(rel) {
			display = rel
		}
	}
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	case err != nil:
		return usageErr(err)
	}

	// Only a valid file is edited (config.Parse also bounds its size and
	// nesting before hcl/v2's recursive parser sees it).
	if old != nil {
		if _, diags := config.Parse(path, old); diags.HasErrors() {
			_ = diags.Write(g.stderr, false)
			return usageErr(fmt.Errorf("%s is not valid: ckptlint facts edits only a file lint accepts", display))
		}
	}

	// Read every source before touching anything: one bad source changes
	// nothing.
	var obs []*facts.Observation
	for _, a := range args {
		data, name, err := readSource(a, g.stdin, o.maxBytes)
		if err != nil {
			return usageErr(err)
		}
		ob, err := facts.Parse(name, data)
		if err != nil {
			return usageErr(err)
		}
		obs = append(obs, ob)
	}
	if len(o.fromLog) > 0 {
		ob, err := readLogs(g, o.fromLog, o.maxLog)
		if err != nil {
			return err
		}
		obs = append(obs, ob)
	}
	client := &facts.Client{ConnectTimeout: o.connect, Timeout: o.timeout, MaxBytes: o.maxBytes, CAFile: o.caFile}
	if o.namenode != "" {
		base, err := facts.BaseURL("--namenode", o.namenode)
		if err != nil {
			return usageErr(err)
		}
		ob, err := facts.FetchNameNode(ctx, client, base)
		if err != nil {
			return usageErr(err)
		}
		obs = append(obs, ob)
	}
	job := o.job
	if o.jobmanager != "" {
		base, err := facts.BaseURL("--jobmanager", o.jobmanager)
		if err != nil {
			return usageErr(err)
		}
		got, id, err := facts.FetchJobManager(ctx, client, base, o.job)
		if err != nil {
			return usageErr(err)
		}
		obs, job = append(obs, got...), id
	}

	target := facts.Target{Cluster: o.cluster, Deployment: o.deployment, JobID: job}
	if target.Deployment == "" {
		if names := facts.BlockNames(old, "deployment"); len(names) == 1 {
			target.Deployment = names[0]
		}
	}
	if target.Cluster == "" {
		// The cluster the deployment runs on, else the only one, else main.
		target.Cluster = facts.DeploymentCluster(old, target.Deployment)
	}
	if target.Cluster == "" {
		target.Cluster = "main"
		if names := facts.BlockNames(old, "cluster"); len(names) == 1 {
			target.Cluster = names[0]
		}
	}
	out, notes, err := facts.ApplyNotes(old, display, obs, target, now)
	if err != nil {
		return usageErr(err)
	}
	// Never write a file lint would refuse.
	if _, diags := config.Parse(path, out); diags.HasErrors() {
		_ = diags.Write(g.stderr, false)
		return usageErr(fmt.Errorf("the facts would make %s invalid; nothing written", display))
	}
	for _, n := range notes {
		g.noteOnce(n)
	}
	if bytes.Equal(out, old) {
		fmt.Fprintf(g.stderr, "ckptlint: %s already holds these facts\n", display)
		return nil
	}
	if o.dryRun {
		name := filepath.ToSlash(display)
		_, err := io.WriteString(g.stdout, fix.Diff(write.Change{Path: path, Old: old, New: out}, name))
		return err
	}
	if err := write.File(path, out); err != nil {
		return usageErr(err)
	}
	fmt.Fprintf(g.stderr, "ckptlint: wrote facts from %d source(s) into %s\n", len(obs), display)
	return nil
}

// readLogs scans each --from-log log as explain --log does (streamed,
// .gz decompressed within max) and returns what they prove together. A log
// that cannot be read whole is an error: facts from part of a log could
// miss its worst line.
func readLogs(g *globals, paths []string, max int64) (*facts.Observation, error) {
	var ls []facts.NamedLog
	var silent []string
	for _, p := range paths {
		r, name, closeFn, err := openLog(g, p, max)
		if err != nil {
			return nil, usageErr(err)
		}
		sum, err := logs.Summarize(r)
		closeFn()
		if err != nil {
			var big *logs.TooLargeError
			if errors.As(err, &big) {
				return nil, usageErr(fmt.Errorf("%s: more than %d bytes of decompressed data (--max-log-bytes): a gzip bomb, or a log larger than the bound; nothing written", name, max))
			}
			return nil, usageErr(fmt.Errorf("%s: %w; nothing written", name, err))
		}
		if len(sum.Facts()) == 0 {
			silent = append(silent, name)
		}
		ls = append(ls, facts.NamedLog{Name: name, Summary: sum})
	}
	ob := facts.FromLogs(ls)
	if ob == nil {
		return nil, usageErr(fmt.Errorf("%s: no line proves a .ckptlint.hcl fact: expected a DirectoryScanner summary (\"Total blocks: N\"), a \"Lock held time above threshold\" warning of the dataset lock, a slow write (\"Slow BlockReceiver\", \"Slow flushOrSync\", \"Slow ReadProcessor\") or a block the NameNode could not place (ckptlint explain --log names what the log holds)",
			strings.Join(silent, ", ")))
	}
	for _, s := range silent {
		g.noteOnce(fmt.Sprintf("%s: no line proves a .ckptlint.hcl fact; the other logs' facts are written", s))
	}
	return ob, nil
}

// readSource reads a SOURCE argument: a file (through inputfs.ReadRegular,
// the reader every input file goes through: non-blocking open, regular
// files only, at most max bytes), or - for standard input, at most max
// bytes.
func readSource(arg string, stdin io.Reader, max int64) ([]byte, string, error) {
	if arg != "-" {
		data, err := inputfs.ReadRegular(arg, max)
		var big *inputfs.TooLargeError
		switch {
		case errors.As(err, &big):
			return nil, arg, fmt.Errorf("%s: %d bytes, over the %d-byte limit (--max-response-bytes)", arg, big.Size, max)
		case err != nil:
			return nil, arg, err
		}
		return data, filepath.ToSlash(arg), nil
	}
	name := "<stdin>"
	data, err := io.ReadAll(io.LimitReader(stdin, max+1))
	if err != nil {
		return nil, name, fmt.Errorf("%s: %v", name, err)
	}
	if int64(len(data)) > max {
		return nil, name, fmt.Errorf("%s: over the %d-byte limit (--max-response-bytes)", name, max)
	}
	return data, name, nil
}
