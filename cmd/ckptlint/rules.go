package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/spf13/cobra"

	"github.com/ckptlint/ckptlint/facts"
	"github.com/ckptlint/ckptlint/internal/logs"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/internal/safetext"
)

func newRulesCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List the rules with id, name, severity and title",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// The one rule list (internal/rule): the rules the Go code reports
			// (CKPT000-CKPT005) first, then the Rego rules with those of
			// --policy and policy_dirs, as lint loads them.
			_, rules, err := g.setupRules(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(g.stdout, rules)
			}
			tw := tabwriter.NewWriter(g.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tSEVERITY\tFIX\tTITLE")
			for _, r := range rules {
				fix := ""
				if r.Fixable {
					fix = "yes"
				}
				// A user policy's metadata is text from its files.
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", safetext.Text(r.ID), safetext.Text(r.Name), r.Severity, fix, safetext.Text(r.Title))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the rule metadata as JSON")
	return cmd
}

func newExplainCmd(g *globals) *cobra.Command {
	var logPath string
	var maxLog int64
	cmd := &cobra.Command{
		Use:   "explain RULE | explain --log FILE",
		Short: "Print a rule's documentation, or name the rules behind the failures in a Flink/Hadoop log",
		Long: `explain RULE prints a rule's documentation: mechanism, numbers, fix and sources.

explain --log FILE (- for standard input) reads a Flink, DataNode or NameNode log or a
stack trace, plain or gzip-compressed (.gz, read as a stream, at most --max-log-bytes
decompressed), recognises the checkpoint failure messages ckptlint knows (Hadoop 2 and 3
wordings) and names the rules and settings to look at. DataNode and NameNode lines that
prove a .ckptlint.hcl fact (the DirectoryScanner's block replicas, a dataset lock held or a
slow write: datanode_blocks, write_stall) are printed ready to paste into the cluster block,
or written there with ckptlint facts --from-log FILE. It exits 0 when it recognised
something and 1 when it found nothing it knows.`,
		Example: `  ckptlint explain CKPT101
  ckptlint explain --log taskmanager.log
  ckptlint explain --log hadoop-hdfs-datanode-dn1.log.2.gz
  kubectl logs deploy/my-job | ckptlint explain --log -`,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, rules, err := g.setupRules(cmd.Context()) // --policy and policy_dirs, as lint loads them
			if err != nil {
				return err
			}
			if logPath != "" {
				if len(args) > 0 {
					return usageErr(fmt.Errorf("explain takes a RULE or --log, not both"))
				}
				return explainLog(g, rules, logPath, maxLog)
			}
			if len(args) != 1 {
				return usageErr(fmt.Errorf("explain needs a rule id (e.g. CKPT101) or --log FILE"))
			}
			if r := rule.Find(rules, args[0]); r != nil {
				fmt.Fprint(g.stdout, explainText(r))
				return nil
			}
			return usageErr(fmt.Errorf("no rule %q; `ckptlint rules` lists them", args[0]))
		},
	}
	cmd.Flags().StringVar(&logPath, "log", "", "a Flink/Hadoop log file to explain, plain or .gz (- for standard input)")
	cmd.Flags().Int64Var(&maxLog, "max-log-bytes", logs.DefaultMaxDecompressed, "most bytes a gzip-compressed log may decompress to before reading stops")
	return cmd
}

// openLog opens a log to scan: path, or standard input for -, decompressed
// when it is gzip data (logs.Reader, at most max bytes). A directory, or a
// name ending in .gz whose content is not gzip, is an error. name is the
// path for messages; close releases the file.
func openLog(g *globals, path string, max int64) (r io.Reader, name string, closeFn func(), err error) {
	in, name, closeFn := g.stdin, "stdin", func() {}
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, "", nil, err
		}
		if st, err := f.Stat(); err == nil && st.IsDir() {
			f.Close()
			return nil, "", nil, fmt.Errorf("%s is a directory, not a log", safetext.Path(path))
		}
		in, name, closeFn = f, safetext.Path(path), func() { f.Close() }
	}
	r, gz, err := logs.Reader(in, max)
	if err != nil {
		closeFn()
		return nil, "", nil, fmt.Errorf("%s: %w", name, err)
	}
	if !gz && strings.HasSuffix(strings.ToLower(path), ".gz") {
		closeFn()
		return nil, "", nil, fmt.Errorf("%s: named .gz but not gzip data (it does not start with the gzip magic bytes 1f 8b)", name)
	}
	return r, name, closeFn, nil
}

// logReadError is the error of a log read that stopped early: what was
// recognised before it has been printed.
func logReadError(name string, err error, max int64) error {
	var big *logs.TooLargeError
	if errors.As(err, &big) {
		return usageErr(fmt.Errorf("%s: stopped after %d bytes of decompressed data (--max-log-bytes %d): a gzip bomb, or a log larger than the bound; what is above is from the part read", name, max, max))
	}
	return usageErr(fmt.Errorf("%s: %w", name, err))
}

// explainLog prints each recognised failure once, with the number of
// further lines that repeat it, and then the .ckptlint.hcl facts the log
// proves, ready to paste. The log's lines, and what the patterns captured
// of them, are shown with visible escapes (safetext.Text): a log is as
// untrusted as a configuration file.
func explainLog(g *globals, rules []*rule.Rule, path string, max int64) error {
	r, name, closeFn, err := openLog(g, path, max)
	if err != nil {
		return usageErr(err)
	}
	defer closeFn()
	// Streamed: the first line of each failure, a count and the worst value
	// of each fact are all that is kept, whatever the log's size.
	sum, err := logs.Summarize(r)
	if sum.Clipped > 0 {
		g.noteOnce(fmt.Sprintf("%s: %d line(s) longer than %d MiB were read in part, the first at line %d; the rest of each was skipped",
			name, sum.Clipped, logs.MaxLine>>20, sum.FirstClipped))
	}
	if len(sum.First) == 0 {
		if err != nil {
			return logReadError(name, err, max)
		}
		fmt.Fprintf(g.stdout, "%s: no checkpoint failure message ckptlint knows\n", name)
		return &exitError{code: exitFindings}
	}
	for i, m := range sum.First {
		if i > 0 {
			fmt.Fprintln(g.stdout)
		}
		printLogMatch(g, rules, name, m, sum.Count[m.Pattern.ID]-1)
	}
	if o := facts.FromLogs([]facts.NamedLog{{Name: name, Summary: sum}}); o != nil {
		arg := "FILE"
		if path != "-" {
			arg = name
		}
		fmt.Fprintf(g.stdout, "\nFacts this log proves, for the cluster block of .ckptlint.hcl (paste them, or run ckptlint facts --from-log %s):\n", arg)
		for _, v := range o.Cluster {
			fmt.Fprintf(g.stdout, "  %s = %s # %s\n", v.Attr, hclwrite.TokensForValue(v.Val).Bytes(), safetext.Text(v.Note))
		}
	}
	if err != nil {
		return logReadError(name, err, max)
	}
	return nil
}

// printLogMatch prints one recognised failure: its line, what it means,
// the rules, settings and facts behind it, and how many more lines repeat it.
func printLogMatch(g *globals, rules []*rule.Rule, name string, m *logs.Match, more int) {
	fmt.Fprintf(g.stdout, "%s:%d: %s\n", name, m.Line, m.Pattern.Title)
	fmt.Fprintf(g.stdout, "  %s\n", safetext.Text(truncate(m.Text, 240)))
	if more > 0 {
		fmt.Fprintf(g.stdout, "  (and %d more line(s) like it)\n", more)
	}
	fmt.Fprintf(g.stdout, "  %s\n", safetext.Text(m.Meaning))
	if m.Via != "" {
		fmt.Fprintf(g.stdout, "  Here %s.\n", m.Via)
	}
	if len(m.Pattern.Rules) > 0 {
		var rs []string
		for _, id := range m.Pattern.Rules {
			if r := rule.Find(rules, id); r != nil {
				rs = append(rs, id+" "+r.Name)
			}
		}
		fmt.Fprintf(g.stdout, "  Rules: %s (ckptlint explain ID; ckptlint lint on the job's configuration)\n", strings.Join(rs, ", "))
	}
	if len(m.Pattern.Keys) > 0 {
		fmt.Fprintf(g.stdout, "  Settings: %s\n", strings.Join(m.Pattern.Keys, ", "))
	}
	if len(m.Evidence) > 0 {
		fmt.Fprintf(g.stdout, "  Proves: %s in .ckptlint.hcl (below)\n", strings.Join(m.Pattern.Facts, ", "))
	}
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// explainText renders a rule's documentation as plain text, each line of
// a user policy's METADATA with visible escapes.
func explainText(r *rule.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (%s", safetext.Text(r.ID), safetext.Text(r.Name), r.Severity)
	if r.Fixable {
		b.WriteString(", fixable")
	}
	fmt.Fprintf(&b, ")\n%s\n\n%s\n", safetext.Text(r.Title), shownLines(strings.TrimSpace(r.Description)))
	if len(r.Related) > 0 {
		b.WriteString("\nSources:\n")
		for _, u := range r.Related {
			fmt.Fprintf(&b, "  %s\n", safetext.Text(u))
		}
	}
	return b.String()
}
