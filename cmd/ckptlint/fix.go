package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ckptlint/ckptlint/fix"
	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/internal/safetext"
	"github.com/ckptlint/ckptlint/internal/versions"
	"github.com/ckptlint/ckptlint/lint"
	"github.com/ckptlint/ckptlint/write"
)

type fixParams struct {
	diff      bool
	rules     []string
	quiet     bool
	failLevel string
	selected  ruleFlags
}

func newFixCmd(g *globals) *cobra.Command {
	p := &fixParams{}
	cmd := &cobra.Command{
		Use:   "fix [paths...]",
		Short: "Rewrite the configuration files so the fixable findings go away, changing only the bytes that must change",
		Long: `fix applies the fix operations of every fixable finding in memory, lints the result again,
repeats until nothing more changes (at most 10 rounds) and then writes every changed file, or
none: each file is staged beside its original, fsynced and renamed over it, keeping its
mode, owner and group; a journal in the git directory lets the next run finish or undo a
run that was killed. A file that changed on disk since it was read (or while it was written),
a non-regular file, a file with other hard links and a symlink that leads out of the target's
repository are refused. See docs/fix.md.

It exits 1 when findings at or above --fail-level remain after fixing (it names them), 0
only when none do, so "ckptlint fix && deploy" deploys only a configuration ckptlint
passes. With --diff it prints a unified diff of what it would write, writes nothing, and
exits 1 when anything would change.`,
		Example: `  ckptlint fix
  ckptlint fix && kubectl apply -f deploy/
  ckptlint fix --diff
  ckptlint fix jobs/etl --rule CKPT101`,
		RunE: func(cmd *cobra.Command, args []string) error { return runFix(cmd, g, p, args) },
	}
	f := cmd.Flags()
	f.BoolVar(&p.diff, "diff", false, "print a unified diff of the changes, write nothing, exit 1 if anything would change")
	f.StringArrayVar(&p.rules, "rule", nil, "fix only this rule id (repeatable)")
	f.BoolVarP(&p.quiet, "quiet", "q", false, "print nothing but errors")
	f.StringVar(&p.failLevel, "fail-level", defaultFailLevel, failLevelHelp+", for the findings that remain after fixing (not with --diff)")
	p.selected.register(f)
	return cmd
}

func runFix(cmd *cobra.Command, g *globals, p *fixParams, args []string) error {
	fail, err := finding.ParseSeverity(p.failLevel)
	if err != nil {
		return usageErr(fmt.Errorf("--fail-level: %w", err))
	}
	cfg, eng, err := g.setup(cmd.Context())
	if err != nil {
		return err
	}
	if err := fixableRules(eng, p.rules); err != nil {
		return err
	}
	opts := g.options(cfg)
	if opts.Rules, err = p.selected.selection(rule.With(eng.Rules())); err != nil {
		return usageErr(err)
	}
	roots, err := fixRoots(args)
	if err != nil {
		return usageErr(err)
	}
	var w *write.Writer
	if p.diff {
		for _, r := range roots {
			if j := write.PendingJournal(r); j != "" {
				fmt.Fprintf(g.stderr, "ckptlint fix: an interrupted fix left %s; this diff is against the files as they are now; run ckptlint fix to complete it\n", safetext.Path(j))
			}
		}
	} else {
		// Lock the repositories and finish (or undo) an interrupted fix
		// before reading anything, so the plan starts from whole files.
		if w, err = write.Open(roots); err != nil {
			return usageErr(err)
		}
		defer w.Close()
		writeNotes(g, w)
	}
	res, err := fix.Run(cmd.Context(), eng, fix.Options{Paths: args, Lint: opts, Rules: p.rules})
	if err != nil {
		return usageErr(err)
	}
	if p.diff {
		return printDiff(g, res)
	}
	if err := w.Write(res.Changes); err != nil {
		return usageErr(err)
	}
	w.Sweep(res.Files)
	writeNotes(g, w)
	if !p.quiet {
		writeFixSummary(g, res, fail)
	}
	if res.Unlinted != nil {
		return usageErr(fmt.Errorf("%w; the linted ones were fixed", unlintedErr(res.Unlinted)))
	}
	if len(res.Unread) > 0 {
		return usageErr(fmt.Errorf("%d path(s) could not be read: %s; every other file was fixed", len(res.Unread), shownPaths(res.Unread)))
	}
	return remainingErr(g, res.Remaining, fail)
}

// fixableRules upper-cases the ids of --rule in place and checks each is a
// fixable rule.
func fixableRules(eng *engine.Engine, ids []string) error {
	for i, id := range ids {
		ids[i] = strings.ToUpper(id)
		r := eng.Rule(ids[i])
		if r == nil {
			return usageErr(fmt.Errorf("--rule %s: no such rule; `ckptlint rules` lists them", id))
		}
		if !r.Fixable {
			return usageErr(fmt.Errorf("--rule %s: %s is not auto-fixable", id, r.Name))
		}
	}
	return nil
}

// printDiff is fix --diff's output and exit code: 1 when anything would
// change.
func printDiff(g *globals, res *fix.Result) error {
	// The patch is stdout; what it leaves out, and why, is stderr.
	writeNotApplied(g.stderr, res)
	for _, c := range res.Changes {
		fmt.Fprint(g.stdout, fix.Diff(c, filepath.ToSlash(res.Display[c.Path])))
	}
	if res.Unlinted != nil {
		return usageErr(fmt.Errorf("%w; the diff covers the linted ones", unlintedErr(res.Unlinted)))
	}
	if len(res.Unread) > 0 {
		return usageErr(fmt.Errorf("%d path(s) could not be read: %s; the diff covers every other file", len(res.Unread), shownPaths(res.Unread)))
	}
	writeHeld(g.stderr, res) // stdout stays a patch
	if len(res.Changes) > 0 {
		return &exitError{code: exitFindings}
	}
	return nil
}

// remainingErr is fix's exit code 1 when findings at or above the fail
// level remain after fixing: it names them on standard error (the first
// few: rule and place), whatever --quiet says, so that a script running
// `ckptlint fix && deploy` tells in its log why it stopped.
func remainingErr(g *globals, remaining []finding.Finding, fail finding.Severity) error {
	var names []string
	for _, f := range remaining {
		if f.Severity >= fail {
			names = append(names, fmt.Sprintf("%s at %s:%d", safetext.Text(f.RuleID), safetext.Path(f.Range.File), f.Range.Start.Line))
		}
	}
	if len(names) == 0 {
		return nil
	}
	shown := names
	if len(shown) > 5 {
		shown = append(shown[:5:5], fmt.Sprintf("and %d more", len(names)-5))
	}
	fmt.Fprintf(g.stderr, "ckptlint fix: %d finding(s) at or above --fail-level %s remain after fixing: %s\n", len(names), fail, strings.Join(shown, ", "))
	return &exitError{code: exitFindings}
}

// fixRoots are the write boundaries of the paths fix was given (the
// working directory when none): each path's git work tree, or the path's
// own tree outside git (lint.RepoRoot) — never the working directory's.
func fixRoots(args []string) ([]string, error) {
	if len(args) == 0 {
		args = []string{"."}
	}
	var roots []string
	for _, a := range args {
		r, err := lint.RepoRoot(a)
		if err != nil {
			return nil, fmt.Errorf("fix: %w", err)
		}
		roots = append(roots, r)
	}
	return roots, nil
}

// writeNotes prints the writer's notes (recovered journals, stale staged
// files) on standard error, once each.
func writeNotes(g *globals, w *write.Writer) {
	for _, n := range w.Notes() {
		fmt.Fprintf(g.stderr, "ckptlint fix: %s\n", safetext.Text(n))
	}
	w.ClearNotes()
}

// writeHeld lists the version-dependent edits fix held back and how to
// declare the version that releases them.
func writeHeld(w io.Writer, res *fix.Result) {
	if len(res.Held) == 0 {
		return
	}
	flink, hadoop, outside := false, false, false
	for _, h := range res.Held {
		switch {
		case versions.NeedsHadoopVersion(h.Op):
			hadoop = true
		case h.Outside:
			outside = true
		default:
			flink = true
		}
	}
	switch {
	case outside && !flink && !hadoop:
		fmt.Fprintf(w, "held back: %d edit(s) that are right only for some Flink releases, because the Flink version is outside the releases ckptlint's key tables cover\n", len(res.Held))
	case (flink || outside) && hadoop:
		fmt.Fprintf(w, "held back: %d edit(s) that are right only for some Flink or Hadoop releases, because the version is not known\n", len(res.Held))
	case hadoop:
		fmt.Fprintf(w, "held back: %d edit(s) that are right only for some Hadoop releases, because the Hadoop version is not known\n", len(res.Held))
	default:
		fmt.Fprintf(w, "held back: %d edit(s) that are right only for some Flink releases, because the Flink version is not known\n", len(res.Held))
	}
	seen := map[string]bool{}
	for _, h := range res.Held {
		line := fmt.Sprintf("  %s:%d: %s: %s (%s)", safetext.Path(h.Finding.Range.File), h.Finding.Range.Start.Line,
			safetext.Text(h.Finding.RuleID+" "+h.Finding.RuleName), opText(h.Op), safetext.Text(h.Reason))
		if !seen[line] {
			seen[line] = true
			fmt.Fprintln(w, line)
		}
	}
	if flink {
		fmt.Fprintln(w, "  declare the version the deployment runs (--flink-version 1.17, or flink_version = \"1.17\" in .ckptlint.hcl), or pin it where ckptlint looks (docs/versions.md), and run ckptlint fix again")
	}
	if outside {
		fmt.Fprintf(w, "  ckptlint's key tables cover Flink %s (docs/versions.md): make these edits by hand only if that release reads the keys as they say\n", model.KeyTableRange())
	}
	if hadoop {
		fmt.Fprintln(w, "  declare the Hadoop version the cluster runs (--hadoop-version 3.3.6, or hadoop_version = \"3.3.6\" in .ckptlint.hcl), or pin it where ckptlint looks (docs/versions.md), and run ckptlint fix again")
	}
}

// writeFixSummary says which files changed, what was fixed, and which
// findings remain and why they were not fixed.
func writeFixSummary(g *globals, res *fix.Result, fail finding.Severity) {
	if len(res.Changes) == 0 {
		fmt.Fprintln(g.stdout, "ckptlint fix: nothing to change")
	} else {
		fmt.Fprintf(g.stdout, "ckptlint fix: changed %d file(s)\n", len(res.Changes))
		for _, c := range res.Changes {
			verb := "updated"
			if c.Old == nil {
				verb = "created"
			}
			fmt.Fprintf(g.stdout, "  %s %s\n", verb, safetext.Path(res.Display[c.Path]))
		}
		seen := map[string]bool{}
		for _, a := range res.Applied {
			op := a.Op
			op.Key = a.Key
			line := fmt.Sprintf("  %s: %s in %s", safetext.Text(a.Finding.RuleID+" "+a.Finding.RuleName), opText(op), safetext.Path(a.File))
			if !seen[line] {
				seen[line] = true
				fmt.Fprintln(g.stdout, line)
			}
		}
	}
	writeHeld(g.stdout, res)
	writeNotApplied(g.stdout, res)
	skipped := map[string]string{}
	for _, s := range res.Skipped {
		skipped[s.Finding.RuleID+"\x00"+s.Finding.Range.File+"\x00"+s.Finding.ConfigSet] = opText(s.Op) + ": " + s.Reason
	}
	for _, h := range res.Held {
		skipped[h.Finding.RuleID+"\x00"+h.Finding.Range.File] = "held back: " + h.Reason
	}
	// Listed: what fails the run and every warning, whatever the level.
	shown := min(fail, finding.Warning)
	var rem []finding.Finding
	for _, f := range res.Remaining {
		if f.Severity >= shown {
			rem = append(rem, f)
		}
	}
	if len(rem) == 0 {
		return
	}
	fmt.Fprintf(g.stdout, "remaining: %d finding(s) at or above %s\n", len(rem), shown)
	for _, f := range rem {
		why := "not auto-fixable: the right value depends on your jobs; see ckptlint explain " + f.RuleID
		if len(f.Fix) > 0 {
			why = "its fix could not be applied"
			if r, ok := skipped[f.RuleID+"\x00"+f.Range.File+"\x00"+f.ConfigSet]; ok {
				why += ": " + r
			}
		}
		fmt.Fprintf(g.stdout, "  %s (%s)\n", f, safetext.Text(why)) // f as the text report shows it (Finding.String)
	}
}

// opText renders a fix operation for messages: "set k = v", "rename a ->
// b", with visible escapes (the keys and values come from the files).
func opText(op finding.Op) string {
	switch op.Op {
	case "set":
		return safetext.Text(fmt.Sprintf("set %s = %s", op.Key, op.Value))
	case "rename":
		return safetext.Text(fmt.Sprintf("rename %s -> %s", op.Key, op.NewKey))
	}
	return safetext.Text(op.Op + " " + op.Key)
}

// shownPaths lists paths for a message, each quoted as safetext.Path
// quotes names.
func shownPaths(paths []string) string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = safetext.Path(p)
	}
	return strings.Join(out, ", ")
}

// writeNotApplied names each fix operation that could not be applied: the
// edit, the finding and config set it belongs to (a FlinkDeployment of a
// multi-document file among them), and why.
func writeNotApplied(w io.Writer, res *fix.Result) {
	for _, s := range res.Skipped {
		fmt.Fprintf(w, "ckptlint fix: not applied: %s for %s at %s:%d (config set %s): %s\n", opText(s.Op), safetext.Text(s.Finding.RuleID),
			safetext.Path(s.Finding.Range.File), s.Finding.Range.Start.Line, safetext.Path(s.Finding.ConfigSet), safetext.Text(s.Reason))
	}
}
