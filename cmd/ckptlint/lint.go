package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ckptlint/ckptlint/internal/buildinfo"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/report"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/internal/testhook"
	"github.com/ckptlint/ckptlint/lint"
	"github.com/ckptlint/ckptlint/write"
)

// defaultFailLevel is --fail-level when not given, for lint and fix.
const defaultFailLevel = "warning"

const failLevelHelp = "lowest severity that makes the exit code 1: error, warning or info"

type lintParams struct {
	formats         []string
	failLevel       string
	showLevel       string
	rules           ruleFlags
	quiet           bool
	compact         bool
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
	f.StringVar(&p.failLevel, "fail-level", defaultFailLevel, failLevelHelp)
	f.StringVar(&p.showLevel, "show-level", "", "lowest severity that text, github and markdown show: error, warning or info (default: warning for github, info otherwise; never above --fail-level; json, sarif, junit and codeclimate hold every finding)")
	p.rules.register(f)
	f.BoolVarP(&p.quiet, "quiet", "q", false, "print nothing in text format on standard output; only the exit code tells (report files are still written)")
	f.BoolVar(&p.compact, "compact", false, "text format: one line per finding, its headline, without the detail lines")
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

// levels parses --fail-level and --show-level (show 0 when not given).
func (p *lintParams) levels() (fail, show finding.Severity, err error) {
	if fail, err = finding.ParseSeverity(p.failLevel); err != nil {
		return 0, 0, usageErr(fmt.Errorf("--fail-level: %w", err))
	}
	if p.showLevel != "" {
		if show, err = finding.ParseSeverity(p.showLevel); err != nil {
			return 0, 0, usageErr(fmt.Errorf("--show-level: %w", err))
		}
	}
	return fail, show, nil
}

func runLint(cmd *cobra.Command, g *globals, p *lintParams, args []string) error {
	fail, show, err := p.levels()
	if err != nil {
		return err
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
	if opts.Rules, err = p.rules.selection(rules); err != nil {
		return usageErr(err)
	}
	opts.Overlay = overlay // nil without one
	// The run's cache entry is written while the report is (measured in
	// docs/performance.md, "One file edited").
	c.Background = true
	defer func() {
		c.Wait()
		if c.Store != nil {
			_ = c.Store.Trim() // only after a run that wrote; a failure leaves the cache larger
		}
	}()
	head := report.Result{Version: buildinfo.Get().Version, Rules: rules, Disabled: disabledRules(rules, opts),
		FailLevel: fail, RepoDir: repoDir()}
	rep, err := newReports(g, outs, head, p.quiet, p.compact, tty, func(format string) finding.Severity { return showLevel(format, show, fail) })
	if err != nil {
		return err
	}
	defer rep.abort()
	opts.Report = rep.group
	opts.NoSources, opts.NoEdits = !rep.groupSources, !rep.edits
	sr := storedFor(c, rep, head, &opts, p, tty)
	res, _, err := lint.Cached(cmd.Context(), c, args, opts)
	if err != nil {
		return usageErr(err)
	}
	warnNoFiles(g.stderr, res, args)
	rr := rep.result(head, res)
	rc := sr.recordRun(c, res)
	defer rc.abort() // a run whose reports fail stores none
	if err := rep.finish(rr); err != nil {
		return err
	}
	rc.done(rr.Sets) // before the cache is trimmed (deferred above)
	rep.noteHidden()
	if err := incomplete(g, res); err != nil {
		return err
	}
	if rep.max != 0 && rep.max >= fail {
		return &exitError{code: exitFindings}
	}
	return nil
}

// result is the run's result as the reports take it at the end: head,
// with what the whole formats kept and what the run counted (stored
// reports count the sets they replay: res then lists none).
func (r *reports) result(head report.Result, res *lint.Result) report.Result {
	rr := head
	rr.Findings, rr.Suppressed, rr.Sources = r.findings, r.suppressed, r.bytes
	rr.Sets, rr.Files = len(res.Sets), res.Files
	if res.Replayed {
		rr.Sets = r.replayedSets
	}
	return rr
}

// incomplete is the error of a run that could not read every path or
// lint every config set: everything else was linted and reported, and the
// run fails whatever the findings (exit 2).
func incomplete(g *globals, res *lint.Result) error {
	if u := res.Unlinted; u != nil {
		err := unlintedErr(u)
		if len(res.Unread) == 0 {
			return usageErr(err)
		}
		fmt.Fprintf(g.stderr, "ckptlint: %v\n", err)
	}
	if n := len(res.Unread); n > 0 {
		list, more := res.Unread, ""
		if len(list) > 5 {
			list, more = list[:5], fmt.Sprintf(", and %d more", len(list)-5)
		}
		return usageErr(fmt.Errorf("%d path(s) could not be read: %s%s; every other file was linted", n, shownPaths(list), more))
	}
	return nil
}

// unlintedErr says that a run found more config sets than lint.MaxSets:
// linted were the first ones, the others are named (the first few) and
// counted.
func unlintedErr(u *lint.Unlinted) error {
	names := strings.Join(u.First, ", ")
	if more := u.Count - len(u.First); more > 0 {
		names += fmt.Sprintf(" and %d more", more)
	}
	return fmt.Errorf("%d config sets found, more than the %d ckptlint lints in one run: the first %d were linted, the %d after them were not (%s); lint the tree in parts (ckptlint lint DIR...)",
		u.Linted+u.Count, u.Linted, u.Linted, u.Count, names)
}

// reports are a run's outputs. The formats that stream (text, GitHub,
// JUnit, JSON: report.Streams) take each group of findings as the run hands it
// on and keep nothing of it; the others take the whole result at the end,
// so their findings are kept only when one of them is asked for. Nothing
// reaches its destination before the run is done (a streamer spools what
// it renders: report.Streamer): a run that fails writes no report, and a
// report file inside the linted tree neither appears nor has a staged file
// beside it while the run lists its directory, which would make every next
// run miss the result cache (docs/output.md).
type reports struct {
	g       *globals
	outs    []output
	tty     bool
	streams []*streamOut // by outs index; nil for a whole format or a dropped one
	whole   bool         // some output renders the whole result
	sources bool         // and reads the bytes of the files (report.ReadsSources)
	// groupSources: some output reads the bytes of the files
	// (report.ReadsSources, report.ReadsGroupSources); without one the run
	// reads none for the reports (lint.Options.NoSources).
	groupSources bool
	// edits: some output shows the fixes' exact byte edits
	// (report.ReadsEdits); without one the run computes none
	// (lint.Options.NoEdits).
	edits bool
	// show is each output's display threshold (showLevel), hidden how
	// many findings it left out for it.
	show   []finding.Severity
	hidden []int
	// What the whole formats and the exit code need.
	findings, suppressed []finding.Finding
	bytes                map[string][]byte
	counts               map[string]int
	max                  finding.Severity
	// replayed are the outputs' bytes when stored reports answer the run
	// (stored.go), by outs index, and replayedSets the sets they count;
	// tee, when set, is where output i's bytes are copied as they are
	// written, for the reports stored for the next run.
	replayed     [][]byte
	replayedSets int
	tee          func(i int) io.Writer
}

// streamOut is an output that streams.
type streamOut struct {
	st  report.Streamer
	err error // the first error spooling it
}

// newReports makes a streamer for each output that streams. Text on
// standard output is coloured with a snippet on a terminal; --quiet drops
// it; --compact makes every text output one line per finding.
func newReports(g *globals, outs []output, head report.Result, quiet, compact, tty bool, show func(format string) finding.Severity) (*reports, error) {
	r := &reports{g: g, outs: outs, tty: tty, streams: make([]*streamOut, len(outs)), counts: report.Counts(nil),
		show: make([]finding.Severity, len(outs)), hidden: make([]int, len(outs))}
	for i, o := range outs {
		r.show[i] = show(o.name)
		r.edits = r.edits || report.ReadsEdits(o.name)
		toStdout := o.path == ""
		if toStdout && quiet && o.name == "text" {
			continue
		}
		if !report.Streams(o.name) {
			r.whole = true
			r.sources = r.sources || report.ReadsSources(o.name)
			r.groupSources = r.groupSources || r.sources
			continue
		}
		opts := report.Options{Compact: compact}
		if toStdout {
			opts = report.Options{Color: tty, Snippet: tty && !compact, Compact: compact}
		}
		r.groupSources = r.groupSources || report.ReadsGroupSources(o.name, opts)
		st, err := report.NewStreamer(o.name, head, opts)
		if err != nil {
			r.abort()
			return nil, &exitError{code: exitInternal, err: err}
		}
		r.streams[i] = &streamOut{st: st}
	}
	return r, nil
}

// group takes one group of the run's findings (lint.Options.Report).
func (r *reports) group(g lint.Group) error {
	for _, f := range g.Findings {
		r.counts[f.Severity.String()]++
		r.max = max(r.max, f.Severity)
	}
	if r.whole {
		r.findings = append(r.findings, g.Findings...)
		r.suppressed = append(r.suppressed, g.Suppressed...)
		if r.sources {
			if r.bytes == nil {
				r.bytes = map[string][]byte{}
			}
			maps.Copy(r.bytes, g.Sources)
		}
	}
	for i, so := range r.streams {
		if so != nil && so.err == nil {
			// A report that cannot be written fails at finish; the run
			// and the other reports go on.
			sg := g
			var n int
			sg.Findings, n = shown(g.Findings, r.show[i])
			sg.Suppressed, _ = shown(g.Suppressed, r.show[i])
			r.hidden[i] += n
			so.err = so.st.Group(sg)
		}
	}
	return nil
}

// noteHidden says on standard error, for the output on standard output
// if it left findings out below its display threshold, how many and how to
// see them (a report written to a file says nothing: a script wrote it).
func (r *reports) noteHidden() {
	for i, o := range r.outs {
		if n := r.hidden[i]; n > 0 && o.path == "" {
			fmt.Fprintf(r.g.stderr, "ckptlint: %d finding(s) below %s not shown in the %s output (--show-level info shows them)\n", n, r.show[i], o.name)
		}
	}
}

// finish writes the outputs in two steps, so that a run that cannot
// write one of its reports writes none (docs/output.md): first every
// report file is staged whole (write.Stage) and standard output's report
// made ready, then the files are renamed into place and standard output
// written. Text on standard output on a terminal is followed by a tally on
// standard error.
func (r *reports) finish(rr report.Result) error {
	if testhook.Env("CKPTLINT_TEST_PANIC") == "report" { // test hook: testdata/script/internal_error.txtar
		panic("test hook: panic while rendering reports")
	}
	type stagedOut struct {
		f    *write.Staged
		name string
	}
	var staged []stagedOut
	defer func() {
		for _, s := range staged {
			// A no-op once committed; a staged file that cannot be
			// removed is named, never left unsaid.
			if err := s.f.Abort(); err != nil {
				fmt.Fprintf(r.g.stderr, "ckptlint: %s report: %v\n", s.name, err)
			}
		}
	}()
	var stdout func() error // writes standard output's report
	text := false           // the report on standard output is text
	for i, o := range r.outs {
		so := r.streams[i]
		if so == nil && report.Streams(o.name) {
			continue // --quiet text
		}
		// Whole-result formats are rendered here; a streamer's report is
		// in its spool already; stored reports are the bytes.
		var whole []byte
		if r.replayed != nil {
			so, whole = nil, r.replayed[i]
		} else if so == nil {
			orr := rr
			var n int
			orr.Findings, n = shown(rr.Findings, r.show[i])
			orr.Suppressed, _ = shown(rr.Suppressed, r.show[i])
			r.hidden[i] = n
			b, err := renderWhole(o, orr)
			if err != nil {
				return err
			}
			whole = b
		} else if so.err != nil { // a streamer fails only when its spool does
			return usageErr(fmt.Errorf("write %s report: %w", o.name, so.err))
		}
		if o.path == "" {
			text = o.name == "text"
			stdout = func() error {
				var err error
				w := r.dest(i, r.g.stdout)
				if so != nil {
					err = so.st.Close(w, rr)
					so.st = nil
				} else {
					_, err = w.Write(whole)
				}
				if err != nil {
					return &exitError{code: exitInternal, err: fmt.Errorf("write report: %w", err)}
				}
				return nil
			}
			continue
		}
		f, err := write.Stage(o.path)
		if err != nil {
			return usageErr(fmt.Errorf("write %s report: %w", o.name, err))
		}
		staged = append(staged, stagedOut{f, o.name})
		w := r.dest(i, f)
		if so != nil {
			err = so.st.Close(w, rr)
			so.st = nil
		} else {
			_, err = w.Write(whole)
		}
		if err != nil {
			return usageErr(fmt.Errorf("write %s report: %w", o.name, err))
		}
	}
	for _, s := range staged {
		if err := s.f.Commit(); err != nil {
			return usageErr(fmt.Errorf("write %s report: %w", s.name, err))
		}
	}
	if stdout == nil {
		return nil
	}
	if err := stdout(); err != nil {
		return err
	}
	if text && r.tty {
		fmt.Fprintln(r.g.stderr, report.Summary(r.counts, rr.Sets, rr.Files))
	}
	return nil
}

// dest is where output i is written: w, and the stored reports' tee.
func (r *reports) dest(i int, w io.Writer) io.Writer {
	if r.tee == nil {
		return w
	}
	return io.MultiWriter(w, r.tee(i))
}

// renderWhole renders the whole-result format o.
func renderWhole(o output, rr report.Result) ([]byte, error) {
	rep, err := report.Get(o.name, report.Options{})
	if err != nil {
		return nil, &exitError{code: exitInternal, err: err}
	}
	var b bytes.Buffer
	if err := rep(&b, rr); err != nil {
		return nil, &exitError{code: exitInternal, err: fmt.Errorf("render %s report: %w", o.name, err)}
	}
	return b.Bytes(), nil
}

// abort lets go of the spools of the outputs not written.
func (r *reports) abort() {
	for _, so := range r.streams {
		if so != nil && so.st != nil {
			so.st.Discard()
			so.st = nil
		}
	}
}

// disabledRules holds the ids of the rules .ckptlint.hcl or the rule
// flags turn off.
func disabledRules(rules []*rule.Rule, opts lint.Options) map[string]bool {
	out := map[string]bool{}
	for _, r := range rules {
		if rc := opts.RuleSetting(r.ID); rc != nil && rc.Enabled != nil && !*rc.Enabled {
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
