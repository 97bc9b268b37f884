package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ckptlint/ckptlint/lint"
	"github.com/ckptlint/ckptlint/lint/finding"
	"github.com/ckptlint/ckptlint/lint/report"
)

type lintParams struct {
	format          string
	failLevel       string
	quiet           bool
	color           string
	noInlineIgnores bool
}

func newLintCmd(g *globals) *cobra.Command {
	p := &lintParams{}
	cmd := &cobra.Command{
		Use:   "lint [paths...]",
		Short: "Lint the Flink and Hadoop configuration under paths (default: the current directory)",
		Example: `  ckptlint lint
  ckptlint lint jobs/ hadoop/ --fail-level warning --format json`,
		RunE: func(cmd *cobra.Command, args []string) error { return runLint(cmd, g, p, args) },
	}
	f := cmd.Flags()
	f.StringVarP(&p.format, "format", "f", "text", "output format: "+strings.Join(report.Formats, ", "))
	f.StringVar(&p.failLevel, "fail-level", "error", "lowest severity that makes the exit code 1: error, warning or info")
	f.BoolVarP(&p.quiet, "quiet", "q", false, "print nothing in text format; only the exit code tells")
	f.StringVar(&p.color, "color", "auto", "colour and source snippets in text output: auto, always or never")
	f.BoolVar(&p.noInlineIgnores, "no-inline-ignores", false, "report findings that ckptlint:ignore comments silence")
	return cmd
}

func isTTY(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func runLint(cmd *cobra.Command, g *globals, p *lintParams, args []string) error {
	fail, err := finding.ParseSeverity(p.failLevel)
	if err != nil {
		return usageErr(fmt.Errorf("--fail-level: %w", err))
	}
	tty := isTTY(g.stdout)
	switch p.color {
	case "auto":
	case "always":
		tty = true
	case "never":
		tty = false
	default:
		return usageErr(fmt.Errorf("--color: %q is not auto, always or never", p.color))
	}
	rep, err := report.Get(p.format, report.Options{Color: tty, Snippet: tty})
	if err != nil {
		return usageErr(fmt.Errorf("--format: %w", err))
	}
	cfg, eng, err := g.setup(cmd.Context())
	if err != nil {
		return err
	}
	opts := g.options(cfg)
	opts.NoInlineIgnores = p.noInlineIgnores
	res, err := lint.Lint(cmd.Context(), eng, args, opts)
	if err != nil {
		return usageErr(err)
	}
	rr := report.Result{Version: buildVersion(), Findings: res.Findings, Sets: len(res.Sets), Files: res.Files,
		Sources: sources(res)}
	if !(p.quiet && p.format == "text") {
		if err := rep(g.stdout, rr); err != nil {
			return &exitError{code: exitInternal, err: fmt.Errorf("write report: %w", err)}
		}
		if p.format == "text" && tty {
			fmt.Fprintln(g.stderr, report.Summary(rr))
		}
	}
	if m := finding.Max(res.Findings); m != 0 && m >= fail {
		return &exitError{code: exitFindings}
	}
	return nil
}

// sources maps display paths to file contents for the snippet view.
func sources(res *lint.Result) map[string][]byte {
	m := map[string][]byte{}
	for _, s := range res.Sets {
		for _, f := range s.Files() {
			m[f.Path] = f.Src
		}
	}
	return m
}
