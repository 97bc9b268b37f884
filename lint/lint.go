package lint

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"sync"

	"github.com/ckptlint/ckptlint/lint/config"
	"github.com/ckptlint/ckptlint/lint/engine"
	"github.com/ckptlint/ckptlint/lint/finding"
	"github.com/ckptlint/ckptlint/lint/model"
)

// ParseErrorRule is the id of the finding every unreadable file produces.
const (
	ParseErrorRule = "CKPT000"
	parseErrorName = "parse-error"
)

// Options configure discovery and evaluation. The zero value lints with the
// embedded policies, no .ckptlint.hcl and GOMAXPROCS workers.
type Options struct {
	Config   *config.Config
	Versions Versions
	Workers  int
	// Overlay replaces or adds file contents by absolute path: `fix` lints
	// its planned edits in memory before writing anything.
	Overlay map[string][]byte
	// NoInlineIgnores disregards `ckptlint:ignore` comments in the files.
	NoInlineIgnores bool
}

// Result is what one lint run found.
type Result struct {
	Sets     []*model.Set
	Findings []finding.Finding
	// Suppressed are findings silenced by an inline ignore; each carries its
	// Suppression.
	Suppressed []finding.Finding
	Files      int
}

// Discover walks paths and returns the config sets, in a stable order.
func Discover(paths []string, opts Options) ([]*model.Set, int, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, 0, fmt.Errorf("working directory: %w", err)
	}
	d := &discoverer{cfg: opts.Config, cwd: cwd, files: map[string]*found{}, declared: map[string]bool{}, overlay: opts.Overlay}
	if opts.Config != nil {
		for _, dep := range opts.Config.Deployments {
			d.declared[opts.Config.Resolve(dep.FlinkConf)] = true
		}
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	if err := d.walk(paths); err != nil {
		return nil, 0, err
	}
	if err := d.addOverlay(paths); err != nil {
		return nil, 0, err
	}
	a := &assembler{d: d, cfg: opts.Config, vers: opts.Versions}
	if err := a.run(); err != nil {
		return nil, 0, err
	}
	return a.sets, len(d.files), nil
}

// Lint discovers the config sets under paths and evaluates every rule on
// them.
func Lint(ctx context.Context, eng *engine.Engine, paths []string, opts Options) (*Result, error) {
	sets, n, err := Discover(paths, opts)
	if err != nil {
		return nil, err
	}
	fs, err := Evaluate(ctx, eng, sets, opts)
	if err != nil {
		return nil, err
	}
	return &Result{Sets: sets, Findings: fs, Files: n}, nil
}

// Evaluate runs the policies over sets on a bounded worker pool. A set with
// an unreadable file yields that file's parse-error finding instead of rule
// findings; other sets are unaffected.
func Evaluate(ctx context.Context, eng *engine.Engine, sets []*model.Set, opts Options) ([]finding.Finding, error) {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, max(len(sets), 1))
	type out struct {
		fs  []finding.Finding
		err error
	}
	results := make([]out, len(sets))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				fs, err := evalSet(ctx, eng, sets[i], opts.Config)
				results[i] = out{fs, err}
			}
		}()
	}
	for i := range sets {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	var all []finding.Finding
	for i, r := range results {
		if r.err != nil {
			return nil, fmt.Errorf("config set %s: %w", sets[i].Name, r.err)
		}
		all = append(all, r.fs...)
	}
	return finding.Sort(all), nil
}

// parseErrors returns a finding for each unreadable file of s.
func parseErrors(s *model.Set) []finding.Finding {
	var out []finding.Finding
	for _, f := range s.Files() {
		if f.Err == nil {
			continue
		}
		pos := f.Err.Pos
		if pos.Line == 0 {
			pos = posOne
		}
		file := f.Err.File
		if file == "" {
			file = f.Path
		}
		msg := f.Err.Msg
		if line := lineAt(f.Src, pos.Line); model.IsTemplate(line) {
			msg += " (this line holds an unrendered template tag: lint the rendered file, or list the template under ignore in .ckptlint.hcl)"
		}
		out = append(out, finding.Finding{
			RuleID: ParseErrorRule, RuleName: parseErrorName, Severity: finding.Error,
			Message:   msg,
			Range:     finding.Range{File: file, Span: spanAt(pos)},
			ConfigSet: s.Name,
		})
	}
	return out
}

func evalSet(ctx context.Context, eng *engine.Engine, s *model.Set, cfg *config.Config) ([]finding.Finding, error) {
	if pe := parseErrors(s); len(pe) > 0 {
		return pe, nil
	}
	v, err := engine.ToValue(model.Input(s))
	if err != nil {
		return nil, fmt.Errorf("convert input: %w", err)
	}
	raws, err := eng.Eval(ctx, v)
	if err != nil {
		return nil, err
	}
	out := make([]finding.Finding, 0, len(raws))
	for _, r := range raws {
		sev := r.Rule.Severity
		if rc := cfg.RuleByID(r.Rule.ID); rc != nil {
			if rc.Enabled != nil && !*rc.Enabled {
				continue
			}
			if rc.Severity != "" {
				if s, err := finding.ParseSeverity(rc.Severity); err == nil {
					sev = s
				}
			}
		}
		if r.Severity != 0 {
			sev = min(sev, r.Severity) // a rule may lower its own severity (info when a fact is missing), never raise it
		}
		f := finding.Finding{
			RuleID: r.Rule.ID, RuleName: r.Rule.Name, Severity: sev, Message: r.Message,
			Fix: r.Fix, ConfigSet: s.Name, DocURL: docURL(r.Rule),
		}
		if loc := model.LocFromInput(r.Loc); loc != nil && loc.File != "" {
			f.Range = finding.Range{File: loc.File, Span: loc.Span}
		} else {
			f.Range = finding.Range{File: defaultFile(s), Span: spanAt(posOne)}
		}
		out = append(out, f)
	}
	return out, nil
}

// defaultFile is where a finding about a default value is reported: the
// Flink file, else the first file of the set.
func defaultFile(s *model.Set) string {
	if s.Flink != nil {
		return s.Flink.Path
	}
	if fs := s.Files(); len(fs) > 0 {
		return fs[0].Path
	}
	return s.Name
}

// docURL is the rule's documentation page.
func docURL(r *engine.Rule) string {
	if r.User {
		if len(r.Related) > 0 {
			return r.Related[0]
		}
		return ""
	}
	return "https://github.com/ckptlint/ckptlint/blob/main/docs/rules/" + r.ID + ".md"
}

// lineAt returns 1-based line n of src, or "".
func lineAt(src []byte, n int) string {
	for i := 1; len(src) > 0; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			j = len(src) - 1
		}
		if i == n {
			return string(src[:j+1])
		}
		src = src[j+1:]
	}
	return ""
}
