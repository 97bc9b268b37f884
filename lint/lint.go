package lint

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/ckptlint/ckptlint/lint/cfgfile"
	"github.com/ckptlint/ckptlint/lint/config"
	"github.com/ckptlint/ckptlint/lint/engine"
	"github.com/ckptlint/ckptlint/lint/finding"
	"github.com/ckptlint/ckptlint/lint/inputfs"
	"github.com/ckptlint/ckptlint/lint/model"
	"github.com/ckptlint/ckptlint/lint/placeholder"
	"github.com/ckptlint/ckptlint/lint/rule"
	"github.com/ckptlint/ckptlint/lint/suppress"
)

// The rules the Go code reports rather than a policy, declared in
// lint/rule: ParseErrorRule is the id of the finding every unreadable file
// produces; UnusedIgnoreRule and InvalidIgnoreRule report ckptlint:ignore
// comments (see docs/suppressions.md); VersionConflictRule reports version
// evidence that disagrees with the version ckptlint goes by
// (docs/versions.md).
const (
	ParseErrorRule      = rule.ParseError
	parseErrorName      = rule.ParseErrorName
	UnusedIgnoreRule    = rule.UnusedIgnore
	InvalidIgnoreRule   = rule.InvalidIgnore
	VersionConflictRule = rule.VersionConflict
	versionConflictName = rule.VersionConflictName
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
	// Note receives one-line notes about paths that are not read and are
	// not findings (a FIFO or a directory named like a configuration file,
	// an unreadable directory, a file named in paths that is no Flink or
	// Hadoop configuration). nil drops them.
	Note func(string)
	// Unbounded reads files wherever they are. By default a run reads only
	// below the repository of each path it is given (the nearest directory
	// holding .git, else the path itself) and the paths .ckptlint.hcl names
	// (docs/security.md).
	Unbounded bool
	// Placeholders is PlaceholdersDetect (also "") or PlaceholdersLiteral;
	// it overrides placeholders in .ckptlint.hcl (docs/templates.md).
	Placeholders string
}

// literalPlaceholders reports whether template placeholders are read as
// literal text.
func (o Options) literalPlaceholders() bool {
	if o.Placeholders != "" {
		return o.Placeholders == PlaceholdersLiteral
	}
	return o.Config != nil && o.Config.Placeholders == PlaceholdersLiteral
}

// Result is what one lint run found.
type Result struct {
	Sets     []*model.Set
	Findings []finding.Finding
	// Suppressed are findings silenced by an inline ignore; each carries its
	// Suppression.
	Suppressed []finding.Finding
	Files      int
	// Unread lists the paths that could not be read at all (permissions,
	// I/O errors, the run's input budget). Each configuration file among
	// them is also a CKPT000 finding; the CLI exits 2 when any is listed.
	Unread []string
}

// Discover walks paths and returns the config sets, in a stable order.
func Discover(paths []string, opts Options) ([]*model.Set, int, error) {
	sets, d, err := discover(paths, opts)
	if err != nil {
		return nil, 0, err
	}
	return sets, len(d.files), nil
}

func discover(paths []string, opts Options) ([]*model.Set, *discoverer, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, nil, fmt.Errorf("working directory: %w", err)
	}
	d := &discoverer{cfg: opts.Config, cwd: cwd, files: map[string]*found{}, declared: map[string]bool{}, overlay: opts.Overlay,
		budget: inputfs.NewBudget(runInputBudget), note: opts.Note, literal: opts.literalPlaceholders()}
	if opts.Config != nil {
		for _, dep := range opts.Config.Deployments {
			d.declared[opts.Config.Resolve(dep.FlinkConf)] = true
		}
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	if !opts.Unbounded {
		if d.bound, err = boundary(paths, opts.Config); err != nil {
			return nil, nil, err
		}
	}
	if err := d.walk(paths); err != nil {
		return nil, nil, err
	}
	if err := d.addOverlay(paths); err != nil {
		return nil, nil, err
	}
	a := &assembler{d: d, cfg: opts.Config, vers: opts.Versions}
	if err := a.run(); err != nil {
		return nil, nil, err
	}
	return a.sets, d, nil
}

// runInputBudget is inputfs.MaxRunInput; tests lower it.
var runInputBudget int64 = inputfs.MaxRunInput

// boundary is where a run may read: the repository (or own tree) of every
// path given, and every path .ckptlint.hcl names (deployment files and
// directories, path_mappings targets).
func boundary(paths []string, cfg *config.Config) (*inputfs.Boundary, error) {
	b := &inputfs.Boundary{}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			continue // walk reports it
		}
		if err := b.AddTree(p); err != nil {
			return nil, fmt.Errorf("lint %s: %w", p, err)
		}
	}
	if cfg != nil {
		for _, dep := range cfg.Deployments {
			for _, p := range []string{dep.FlinkConf, dep.HadoopConf, dep.ClusterHDFSSite} {
				if p != "" {
					b.AddNamed(cfg.Resolve(p))
				}
			}
		}
		for _, to := range cfg.PathMappings {
			b.AddNamed(cfg.Resolve(to))
		}
	}
	return b, nil
}

// Lint discovers the config sets under paths and evaluates every rule on
// them.
func Lint(ctx context.Context, eng *engine.Engine, paths []string, opts Options) (*Result, error) {
	sets, d, err := discover(paths, opts)
	if err != nil {
		return nil, err
	}
	fs, sup, err := evaluate(ctx, eng, sets, opts)
	if err != nil {
		return nil, err
	}
	res := &Result{Sets: sets, Findings: fs, Suppressed: sup, Files: len(d.files)}
	for _, p := range d.unread {
		res.Unread = append(res.Unread, d.displayPath(p))
	}
	return res, nil
}

// Evaluate runs the policies over sets on a bounded worker pool. A set with
// an unreadable file yields that file's parse-error finding instead of rule
// findings; other sets are unaffected. Unless opts.NoInlineIgnores, the
// findings ckptlint:ignore comments silence are left out (Lint returns
// them in Result.Suppressed) and problems with the ignores are added.
func Evaluate(ctx context.Context, eng *engine.Engine, sets []*model.Set, opts Options) ([]finding.Finding, error) {
	fs, _, err := evaluate(ctx, eng, sets, opts)
	return fs, err
}

func evaluate(ctx context.Context, eng *engine.Engine, sets []*model.Set, opts Options) (fs, suppressed []finding.Finding, err error) {
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
				fs, err := safeEvalSet(ctx, eng, sets[i], opts.Config)
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
			return nil, nil, fmt.Errorf("config set %s: %w", sets[i].Name, r.err)
		}
		all = append(all, r.fs...)
	}
	if opts.NoInlineIgnores {
		return finding.Sort(all), nil, nil
	}
	kept, suppressed := applyIgnores(eng, sets, all, opts)
	return finding.Sort(kept), finding.Sort(suppressed), nil
}

// applyIgnores reads the ckptlint:ignore comments of every file of sets
// (and of the files they pull in through xi:include), takes the findings
// they silence out of fs, and adds CKPT001/CKPT002 findings for unused and
// malformed ignores. It runs once over all sets, after every set is
// evaluated: a Hadoop file shared by several sets has one set of ignores,
// used when any set's finding matches.
func applyIgnores(eng *engine.Engine, sets []*model.Set, fs []finding.Finding, opts Options) (kept, suppressed []finding.Finding) {
	type fileInfo struct {
		f         *suppress.File
		set       string // the first config set holding the file
		unchecked bool   // some set holding it was not evaluated
	}
	files := map[string]*fileInfo{}
	var order []string
	add := func(path string, src func() []byte, syn suppress.Syntax, set string, evaluated bool) {
		fi := files[path]
		if fi == nil {
			if syn == 0 {
				return
			}
			fi = &fileInfo{f: suppress.Parse(path, src(), syn), set: set}
			files[path] = fi
			order = append(order, path)
		}
		fi.unchecked = fi.unchecked || !evaluated
	}
	for _, s := range sets {
		// A set with an unreadable file is not evaluated (evalSet): its
		// ignores cannot be checked for use.
		evaluated := !slices.ContainsFunc(s.Files(), func(f *cfgfile.File) bool { return f.Err != nil || skippedTemplate(f) })
		for _, f := range s.Files() {
			add(f.Path, func() []byte { return f.Src }, suppress.SyntaxOf(f.Format), s.Name, evaluated)
			for _, inc := range f.Includes {
				add(inc, func() []byte { return readSource(inc, opts.Overlay) }, suppress.SyntaxOfPath(inc), s.Name, evaluated)
			}
		}
	}
	parsed := make([]*suppress.File, 0, len(order))
	for _, p := range order {
		parsed = append(parsed, files[p].f)
	}
	rules := []suppress.Rule{{ID: ParseErrorRule, Name: parseErrorName,
		NotIgnorable: "Flink or Hadoop cannot read the file; fix it, or list it under ignore in .ckptlint.hcl"}}
	for _, r := range eng.Rules() {
		rules = append(rules, suppress.Rule{ID: r.ID, Name: r.Name})
	}
	out := suppress.Apply(fs, parsed, suppress.Options{
		Rules: rules,
		Dormant: func(id string) bool {
			rc := opts.Config.RuleByID(id)
			return rc != nil && rc.Enabled != nil && !*rc.Enabled
		},
		Unchecked: func(path string) bool { return files[path] != nil && files[path].unchecked },
	})
	kept = out.Findings
	for _, p := range out.Problems {
		if fi := files[p.Range.File]; fi != nil {
			p.ConfigSet = fi.set
		}
		if rc := opts.Config.RuleByID(p.RuleID); rc != nil {
			if rc.Enabled != nil && !*rc.Enabled {
				continue
			}
			if sev, err := finding.ParseSeverity(rc.Severity); rc.Severity != "" && err == nil {
				p.Severity = sev
			}
		}
		kept = append(kept, p)
	}
	return kept, out.Suppressed
}

// readSource reads a file pulled in through xi:include (path is relative
// to the working directory unless absolute), from the overlay when it is
// there; nil when it cannot be read. Only includes discovery read (inside
// the boundary) are listed in File.Includes.
func readSource(path string, overlay map[string][]byte) []byte {
	p := filepath.FromSlash(path)
	if abs, err := filepath.Abs(p); err == nil {
		if b, ok := overlay[abs]; ok {
			return b
		}
	}
	b, _ := inputfs.ReadRegular(p, cfgfile.MaxFileSize)
	return b
}

// parseErrors returns a finding for each unreadable file of s.
func parseErrors(s *model.Set) []finding.Finding {
	var out []finding.Finding
	for _, f := range s.Files() {
		if f.Err == nil || skippedTemplate(f) {
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
		line := lineAt(f.Src, pos.Line)
		if placeholder.Has(line, placeholder.OptionsFor(f.Format, "")) && f.Template == nil {
			msg += " (this line holds an unrendered template tag: lint the rendered file, or list the template under ignore in .ckptlint.hcl)"
		}
		if strings.Contains(msg, `"--"`) && strings.Contains(strings.ToLower(line), "ckptlint:ignore") {
			msg += ` (XML comments cannot hold "--": separate the reason with a single '-', <!-- ckptlint:ignore CKPT101 - reason -->)`
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

// PanicError is a panic recovered in a goroutine ckptlint started: a bug in
// ckptlint (or a library it calls), not a problem with the input. A panic in
// a goroutine other than main cannot be recovered by main's deferred recover
// and would end the process with the Go runtime's exit code 2 and a stack
// dump, so every goroutine recovers and hands the panic back as this error.
// The command prints Value and exits 3; Stack only with CKPTLINT_DEBUG=1.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("internal error: %v", e.Value) }

// safeEvalSet is evalSet with a panic turned into a *PanicError.
func safeEvalSet(ctx context.Context, eng *engine.Engine, s *model.Set, cfg *config.Config) (fs []finding.Finding, err error) {
	defer func() {
		if r := recover(); r != nil {
			fs, err = nil, &PanicError{Value: r, Stack: debug.Stack()}
		}
	}()
	if os.Getenv("CKPTLINT_TEST_PANIC") == "eval" { // test hook: cmd/ckptlint/testdata/script/internal_error.txtar
		panic("test hook: panic in an evaluation worker for " + s.Name)
	}
	return evalSet(ctx, eng, s, cfg)
}

func evalSet(ctx context.Context, eng *engine.Engine, s *model.Set, cfg *config.Config) ([]finding.Finding, error) {
	notes := applyRuleBlocks(cfg, templateNotes(s))
	pe := parseErrors(s)
	if len(pe) > 0 || slices.ContainsFunc(s.Files(), skippedTemplate) {
		return append(pe, notes...), nil
	}
	conflicts := versionConflicts(s)
	v, err := engine.ToValue(model.Input(s))
	if err != nil {
		return nil, fmt.Errorf("convert input: %w", err)
	}
	raws, err := eng.Eval(ctx, v)
	if err != nil {
		return nil, err
	}
	out := make([]finding.Finding, 0, len(raws)+len(conflicts))
	out = append(out, applyRuleBlocks(cfg, conflicts)...)
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
			Fix: r.Fix, ConfigSet: s.Name, DocURL: r.Rule.HelpURI(), VersionDependent: r.VersionDependent,
		}
		if f.VersionDependent && !s.FlinkVersion.Known() {
			f.Severity = min(f.Severity, finding.Info)
			f.Message += unknownVersionNote(f)
		}
		if loc := model.LocFromInput(r.Loc); loc != nil && loc.File != "" {
			f.Range = finding.Range{File: loc.File, Span: loc.Span}
		} else {
			f.Range = finding.Range{File: defaultFile(s), Span: spanAt(posOne)}
		}
		out = append(out, f)
	}
	return append(applyTemplates(s, out), notes...), nil
}

// applyRuleBlocks applies the rule blocks of .ckptlint.hcl to findings the
// Go code reports: a disabled rule's findings are dropped, a severity is
// overridden.
func applyRuleBlocks(cfg *config.Config, fs []finding.Finding) []finding.Finding {
	out := fs[:0]
	for _, f := range fs {
		if rc := cfg.RuleByID(f.RuleID); rc != nil {
			if rc.Enabled != nil && !*rc.Enabled {
				continue
			}
			if s, err := finding.ParseSeverity(rc.Severity); rc.Severity != "" && err == nil {
				f.Severity = s
			}
		}
		out = append(out, f)
	}
	return out
}

// versionConflicts reports each pinned version of another major.minor than
// the one ckptlint goes by, at the top of the set's Flink file, naming both
// places.
func versionConflicts(s *model.Set) []finding.Finding {
	var out []finding.Finding
	for _, pv := range []struct {
		product string
		r       model.Resolved
	}{{"Flink", s.FlinkVersion}, {"Hadoop", s.HadoopVersion}} {
		for _, c := range pv.r.Conflicts {
			lower := strings.ToLower(pv.product)
			out = append(out, finding.Finding{
				RuleID: VersionConflictRule, RuleName: versionConflictName, Severity: finding.Info,
				Message: fmt.Sprintf("%s versions disagree: ckptlint goes by %s, but %s pins %s %s. If %s %s is what runs with this configuration, declare it with --%s-version or %s_version in .ckptlint.hcl",
					pv.product, pv.r.Text(pv.product), c.Place(), pv.product, c.Version, pv.product, c.Version, lower, lower),
				Range:     finding.Range{File: defaultFile(s), Span: spanAt(posOne)},
				ConfigSet: s.Name,
				DocURL:    "https://github.com/ckptlint/ckptlint/blob/main/docs/versions.md",
			})
		}
	}
	return out
}

// unknownVersionNote is appended to a version-dependent finding while the
// Flink version is not known: what declaring it would change.
func unknownVersionNote(f finding.Finding) string {
	note := " [info while the Flink version is not known: once it is declared, ckptlint judges this for that release"
	if slices.ContainsFunc(f.Fix, NeedsVersion) {
		note += " and fix applies the edit it holds back now"
	}
	return note + "]"
}

// NeedsHadoopVersion reports whether a fix operation renames a Hadoop key:
// the new names (fs.defaultFS, dfs.blocksize, ...) and the deprecation
// table that maps the old ones came with Hadoop 0.23/2.0 (hadoop-common
// DeprecatedProperties, first published for 0.23); Hadoop 1.x reads only
// the old name, so the rename is right only from 0.23 on.
func NeedsHadoopVersion(op finding.Op) bool {
	return op.Op == "rename" && op.Target != "flink"
}

// HadoopRenamesRead reports whether the set's Hadoop version is known to
// read the new Hadoop key names: 0.23 or 2.0 and later. Hadoop 1.x came
// from the older 0.20.205 line and does not, although 1 > 0.23.
func HadoopRenamesRead(s *model.Set) bool {
	v := s.HadoopVersion.Version
	return s.HadoopVersion.Known() && (v.Major >= 2 || v.Major == 0 && v.Minor >= 23)
}

// NeedsVersion reports whether a fix operation is right only for some Flink
// releases: marked so by its rule, or a rename of a Flink key (a key's new
// name is read only from the release that introduced it).
func NeedsVersion(op finding.Op) bool {
	return op.NeedsVersion || op.Op == "rename" && op.Target == "flink"
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
