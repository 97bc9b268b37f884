package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ckptlint/ckptlint/fix"
	"github.com/ckptlint/ckptlint/internal/buildinfo"
	"github.com/ckptlint/ckptlint/lint"
	"github.com/ckptlint/ckptlint/lint/config"
	"github.com/ckptlint/ckptlint/lint/finding"
	"github.com/ckptlint/ckptlint/lint/report"
	"github.com/ckptlint/ckptlint/lint/rule"
	"github.com/ckptlint/ckptlint/write"
)

type lintParams struct {
	formats         []string
	failLevel       string
	quiet           bool
	color           string
	noInlineIgnores bool
	stdinFilename   string
}

func newLintCmd(g *globals) *cobra.Command {
	p := &lintParams{}
	cmd := &cobra.Command{
		Use:   "lint [paths...]",
		Short: "Lint the Flink and Hadoop configuration under paths (default: the current directory)",
		Example: `  ckptlint lint
  ckptlint lint jobs/ hadoop/ --fail-level warning --format json
  ckptlint lint --stdin-filename flink/conf/flink-conf.yaml - < buffer   (editors)
  ckptlint lint --format github --format sarif=results.sarif --format markdown=summary.md`,
		RunE: func(cmd *cobra.Command, args []string) error { return runLint(cmd, g, p, args) },
	}
	f := cmd.Flags()
	f.StringArrayVarP(&p.formats, "format", "f", nil, "output format, repeatable: NAME writes to standard output, NAME=PATH to a file (PATH - is standard output); "+
		"NAME is one of "+strings.Join(report.Formats, ", ")+" (default text)")
	f.StringVar(&p.failLevel, "fail-level", "error", "lowest severity that makes the exit code 1: error, warning or info")
	f.BoolVarP(&p.quiet, "quiet", "q", false, "print nothing in text format on standard output; only the exit code tells (report files are still written)")
	f.StringVar(&p.color, "color", "auto", "colour and source snippets in text output on standard output: auto (on a terminal, unless NO_COLOR; FORCE_COLOR or CLICOLOR_FORCE force it), always or never")
	f.StringVar(&p.stdinFilename, "stdin-filename", "", "with the path - : lint standard input as if it were this file, with the files beside it on disk")
	f.BoolVar(&p.noInlineIgnores, "no-inline-ignores", false, "report findings that ckptlint:ignore comments silence")
	return cmd
}

func isTTY(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// output is one --format: a reporter and where it writes ("" is standard
// output).
type output struct {
	name string
	path string
}

// parseFormats reads the --format values: NAME or NAME=PATH, at most one of
// them on standard output, no file twice. No value means text on standard
// output.
func parseFormats(specs []string) ([]output, error) {
	if len(specs) == 0 {
		return []output{{name: "text"}}, nil
	}
	var outs []output
	stdout := ""
	files := map[string]string{}
	for _, spec := range specs {
		name, path, hasPath := strings.Cut(spec, "=")
		name = strings.ToLower(strings.TrimSpace(name))
		if _, err := report.Get(name, report.Options{}); err != nil {
			return nil, err
		}
		switch {
		case hasPath && path == "":
			return nil, fmt.Errorf("%q: empty path (write %s=- for standard output)", spec, name)
		case path == "-":
			path = ""
		}
		if path == "" {
			if stdout != "" {
				return nil, fmt.Errorf("%s and %s both write to standard output; send one of them to a file, e.g. --format %s=out.%s",
					stdout, name, name, extension(name))
			}
			stdout = name
		} else {
			abs, err := filepath.Abs(path)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", spec, err)
			}
			if prev, dup := files[abs]; dup {
				return nil, fmt.Errorf("%s and %s both write to %s", prev, name, path)
			}
			files[abs] = name
			if st, err := os.Stat(filepath.Dir(abs)); err != nil || !st.IsDir() {
				return nil, fmt.Errorf("%q: directory %s does not exist", spec, filepath.Dir(path))
			}
			if st, err := os.Stat(abs); err == nil && !st.Mode().IsRegular() {
				return nil, fmt.Errorf("%q: %s exists and is not a regular file", spec, path)
			}
		}
		outs = append(outs, output{name: name, path: path})
	}
	return outs, nil
}

// extension suggests a file extension for a format's output.
func extension(name string) string {
	switch name {
	case "junit":
		return "xml"
	case "markdown":
		return "md"
	case "codeclimate":
		return "json"
	case "text", "github":
		return "txt"
	}
	return name
}

func runLint(cmd *cobra.Command, g *globals, p *lintParams, args []string) error {
	fail, err := finding.ParseSeverity(p.failLevel)
	if err != nil {
		return usageErr(fmt.Errorf("--fail-level: %w", err))
	}
	tty, err := useColor(p.color, isTTY(g.stdout), os.Getenv)
	if err != nil {
		return usageErr(err)
	}
	args, overlay, err := stdinPaths(args, p.stdinFilename, g.stdin)
	if err != nil {
		return usageErr(err)
	}
	outs, err := parseFormats(p.formats)
	if err != nil {
		return usageErr(fmt.Errorf("--format: %w", err))
	}
	cfg, c, rules, err := g.setupCached(cmd.Context())
	if err != nil {
		return err
	}
	opts := g.options(cfg)
	opts.NoInlineIgnores = p.noInlineIgnores
	// Free each set's parsed entries once it is evaluated, unless SARIF's
	// exact fix edits (fix.Edits) read them after the run.
	opts.Release = !slices.ContainsFunc(outs, func(o output) bool { return o.name == "sarif" })
	if overlay != nil {
		opts.Overlay = overlay
	}
	// The run's cache entry is written while the report is (measured in
	// docs/performance.md, "One file edited").
	c.Background = true
	defer func() {
		c.Wait()
		if c.Store != nil {
			_ = c.Store.Trim() // only after a run that wrote; a failure leaves the cache larger
		}
	}()
	res, _, err := lint.Cached(cmd.Context(), c, args, opts)
	if err != nil {
		return usageErr(err)
	}
	warnNoFiles(g.stderr, res, args)
	rr := report.Result{Version: buildinfo.Get().Version, Findings: res.Findings, Suppressed: res.Suppressed,
		Sets: len(res.Sets), Files: res.Files, Sources: sources(res), Rules: rules,
		Disabled:  disabledRules(rules, cfg),
		FailLevel: fail, RepoDir: repoDir()}
	for _, s := range res.Sets {
		rr.ConfigSets = append(rr.ConfigSets, s.Name)
	}
	for _, o := range outs {
		if o.name == "sarif" {
			sets := res.Sets
			if res.Cached {
				// The exact edits need the parsed files, which a run
				// answered from the cache did not read.
				if sets, _, err = lint.Discover(args, opts); err != nil {
					return usageErr(err)
				}
			}
			fix.Edits(sets, res.Findings) // exact replacements for SARIF fixes
		}
	}
	if err := writeOutputs(g, outs, rr, p.quiet, tty); err != nil {
		return err
	}
	if n := len(res.Unread); n > 0 {
		// Everything else was linted and reported; an unread file still
		// fails the run, whatever the findings.
		list := res.Unread
		if len(list) > 5 {
			list = append(list[:5:5], fmt.Sprintf("and %d more", len(list)-5))
		}
		return usageErr(fmt.Errorf("%d path(s) could not be read: %s; every other file was linted", n, strings.Join(list, ", ")))
	}
	if m := finding.Max(res.Findings); m != 0 && m >= fail {
		return &exitError{code: exitFindings}
	}
	return nil
}

// writeOutputs renders every format, then writes the files (each staged,
// fsynced and renamed into place by write.File) and standard output. Text on
// standard output is coloured with a snippet on a terminal and followed by
// a tally on standard error; --quiet drops it.
func writeOutputs(g *globals, outs []output, rr report.Result, quiet, tty bool) error {
	if os.Getenv("CKPTLINT_TEST_PANIC") == "report" { // test hook: testdata/script/internal_error.txtar
		panic("test hook: panic while rendering reports")
	}
	for _, o := range outs {
		toStdout := o.path == ""
		if toStdout && quiet && o.name == "text" {
			continue
		}
		opts := report.Options{}
		if toStdout {
			opts = report.Options{Color: tty, Snippet: tty}
		}
		rep, err := report.Get(o.name, opts)
		if err != nil {
			return &exitError{code: exitInternal, err: err}
		}
		var b bytes.Buffer
		if err := rep(&b, rr); err != nil {
			return &exitError{code: exitInternal, err: fmt.Errorf("render %s report: %w", o.name, err)}
		}
		if !toStdout {
			if err := write.File(o.path, b.Bytes()); err != nil {
				return usageErr(fmt.Errorf("write %s report: %w", o.name, err))
			}
			continue
		}
		if _, err := g.stdout.Write(b.Bytes()); err != nil {
			return &exitError{code: exitInternal, err: fmt.Errorf("write report: %w", err)}
		}
		if o.name == "text" && tty {
			fmt.Fprintln(g.stderr, report.Summary(rr))
		}
	}
	return nil
}

// disabledRules holds the ids of the rules .ckptlint.hcl turns off.
func disabledRules(rules []*rule.Rule, cfg *config.Config) map[string]bool {
	out := map[string]bool{}
	for _, r := range rules {
		if rc := cfg.RuleByID(r.ID); rc != nil && rc.Enabled != nil && !*rc.Enabled {
			out[r.ID] = true
		}
	}
	return out
}

// repoDir is the working directory relative to the repository root, with
// slashes ("" at the root or outside a repository).
func repoDir() string {
	root := repoRoot(".")
	if root == "" {
		return ""
	}
	cwd, err := filepath.Abs(".")
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(root, cwd)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return ""
	}
	return filepath.ToSlash(rel)
}

// sources maps display paths to file contents for the snippet view.
func sources(res *lint.Result) map[string][]byte {
	if res.Sources != nil {
		return res.Sources
	}
	m := map[string][]byte{}
	for _, s := range res.Sets {
		for _, f := range s.Files() {
			m[f.Path] = f.Src
		}
	}
	return m
}
