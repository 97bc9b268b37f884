package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ckptlint/ckptlint/generate"
	"github.com/ckptlint/ckptlint/generate/diff"
	"github.com/ckptlint/ckptlint/lint/finding"
)

type fixParams struct {
	diff  bool
	rules []string
	quiet bool
}

func newFixCmd(g *globals) *cobra.Command {
	p := &fixParams{}
	cmd := &cobra.Command{
		Use:   "fix [paths...]",
		Short: "Rewrite the configuration files so the fixable findings go away, changing only the bytes that must change",
		Long: `fix applies the fix operations of every fixable finding in memory, lints the result again,
repeats until nothing more changes (at most 10 rounds) and then writes every changed file, or
none: each file is staged beside its original and renamed over it, its mode kept. A file
that changed on disk since it was read, a non-regular file and a symlink that leads out of
the repository are refused.

With --diff it prints a unified diff of what it would write, writes nothing, and exits 1
when anything would change.`,
		Example: `  ckptlint fix
  ckptlint fix --diff
  ckptlint fix jobs/etl --rule CKPT101`,
		RunE: func(cmd *cobra.Command, args []string) error { return runFix(cmd, g, p, args) },
	}
	f := cmd.Flags()
	f.BoolVar(&p.diff, "diff", false, "print a unified diff of the changes, write nothing, exit 1 if anything would change")
	f.StringArrayVar(&p.rules, "rule", nil, "fix only this rule id (repeatable)")
	f.BoolVarP(&p.quiet, "quiet", "q", false, "print nothing but errors")
	return cmd
}

func runFix(cmd *cobra.Command, g *globals, p *fixParams, args []string) error {
	cfg, eng, err := g.setup(cmd.Context())
	if err != nil {
		return err
	}
	for i, id := range p.rules {
		p.rules[i] = strings.ToUpper(id)
		r := eng.Rule(p.rules[i])
		if r == nil {
			return usageErr(fmt.Errorf("--rule %s: no such rule; `ckptlint rules` lists them", id))
		}
		if !r.Fixable {
			return usageErr(fmt.Errorf("--rule %s: %s is not auto-fixable", id, r.Name))
		}
	}
	res, err := generate.Fix(cmd.Context(), eng, generate.FixOptions{Paths: args, Lint: g.options(cfg), Rules: p.rules})
	if err != nil {
		return usageErr(err)
	}
	if p.diff {
		for _, c := range res.Changes {
			name := filepath.ToSlash(res.Display[c.Path])
			old := "a/" + name
			if c.Old == nil {
				old = "/dev/null"
			}
			fmt.Fprint(g.stdout, diff.Unified(old, "b/"+name, c.Old, c.New))
		}
		writeHeld(g.stderr, res) // stdout stays a patch
		if len(res.Changes) > 0 {
			return &exitError{code: exitFindings}
		}
		return nil
	}
	if len(res.Changes) > 0 {
		root := repoRoot(".")
		if root == "" {
			root, _ = os.Getwd()
		}
		if err := generate.WriteAll(res.Changes, root); err != nil {
			return usageErr(err)
		}
	}
	if !p.quiet {
		writeFixSummary(g, res)
	}
	return nil
}

// writeHeld lists the version-dependent edits fix held back and how to
// declare the version that releases them.
func writeHeld(w io.Writer, res *generate.FixResult) {
	if len(res.Held) == 0 {
		return
	}
	fmt.Fprintf(w, "held back: %d edit(s) that are right only for some Flink releases, because the Flink version is not known\n", len(res.Held))
	seen := map[string]bool{}
	for _, h := range res.Held {
		line := fmt.Sprintf("  %s:%d: %s %s: %s %s", h.Finding.Range.File, h.Finding.Range.Start.Line, h.Finding.RuleID, h.Finding.RuleName, h.Op.Op, h.Op.Key)
		switch h.Op.Op {
		case "set":
			line += " = " + h.Op.Value
		case "rename":
			line += " -> " + h.Op.NewKey
		}
		line += " (" + h.Reason + ")"
		if !seen[line] {
			seen[line] = true
			fmt.Fprintln(w, line)
		}
	}
	fmt.Fprintln(w, "  declare the version the deployment runs (--flink-version 1.17, or flink_version = \"1.17\" in .ckptlint.hcl), or pin it where ckptlint looks (docs/versions.md), and run ckptlint fix again")
}

// writeFixSummary says which files changed, what was fixed, and which
// findings remain and why they were not fixed.
func writeFixSummary(g *globals, res *generate.FixResult) {
	if len(res.Changes) == 0 {
		fmt.Fprintln(g.stdout, "ckptlint fix: nothing to change")
	} else {
		fmt.Fprintf(g.stdout, "ckptlint fix: changed %d file(s)\n", len(res.Changes))
		for _, c := range res.Changes {
			verb := "updated"
			if c.Old == nil {
				verb = "created"
			}
			fmt.Fprintf(g.stdout, "  %s %s\n", verb, res.Display[c.Path])
		}
		seen := map[string]bool{}
		for _, a := range res.Applied {
			line := fmt.Sprintf("  %s %s: %s %s", a.Finding.RuleID, a.Finding.RuleName, a.Op.Op, a.Key)
			if a.Op.Op == "set" {
				line += " = " + a.Op.Value
			}
			if a.Op.Op == "rename" {
				line += " -> " + a.Op.NewKey
			}
			line += " in " + a.File
			if !seen[line] {
				seen[line] = true
				fmt.Fprintln(g.stdout, line)
			}
		}
	}
	writeHeld(g.stdout, res)
	skipped := map[string]string{}
	for _, s := range res.Skipped {
		skipped[s.Finding.RuleID+"\x00"+s.Finding.Range.File] = s.Reason
	}
	var rem []finding.Finding
	for _, f := range res.Remaining {
		if f.Severity >= finding.Warning {
			rem = append(rem, f)
		}
	}
	if len(rem) == 0 {
		return
	}
	fmt.Fprintf(g.stdout, "remaining: %d finding(s) at warning or above\n", len(rem))
	for _, f := range rem {
		why := "not auto-fixable: the right value depends on your jobs; see ckptlint explain " + f.RuleID
		if len(f.Fix) > 0 {
			why = "its fix could not be applied"
			if r, ok := skipped[f.RuleID+"\x00"+f.Range.File]; ok {
				why += ": " + r
			}
		}
		fmt.Fprintf(g.stdout, "  %s (%s)\n", f, why)
	}
}
