package lint

import (
	"context"
	"errors"
	"iter"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"github.com/ckptlint/ckptlint/lint/assemble"
	"github.com/ckptlint/ckptlint/lint/config"
	"github.com/ckptlint/ckptlint/lint/discover"
	"github.com/ckptlint/ckptlint/lint/engine"
	"github.com/ckptlint/ckptlint/lint/evaluate"
	"github.com/ckptlint/ckptlint/lint/finding"
	"github.com/ckptlint/ckptlint/lint/inputfs"
	"github.com/ckptlint/ckptlint/lint/model"
	"github.com/ckptlint/ckptlint/lint/parsed"
	"github.com/ckptlint/ckptlint/lint/suppress"
	"github.com/ckptlint/ckptlint/lint/template"
	"github.com/ckptlint/ckptlint/lint/versions"
)

// The rules the Go code reports rather than a policy, declared in
// lint/rule (whose Builtins lists them): ParseErrorRule is the id of the
// finding every unreadable file produces; UnusedIgnoreRule and
// InvalidIgnoreRule report ckptlint:ignore comments (see
// docs/suppressions.md).
const (
	ParseErrorRule    = evaluate.ParseErrorRule
	parseErrorName    = evaluate.ParseErrorName
	UnusedIgnoreRule  = suppress.UnusedRule
	InvalidIgnoreRule = suppress.InvalidRule
	// TemplateRule is the info finding of a file read as a template
	// (docs/templates.md).
	TemplateRule = template.Rule
	templateName = template.Name
	// VersionConflictRule reports version evidence that disagrees with the
	// version ckptlint goes by (docs/versions.md).
	VersionConflictRule = evaluate.VersionConflictRule
	versionConflictName = evaluate.VersionConflictName
)

// Placeholder modes (--placeholders, placeholders in .ckptlint.hcl).
const (
	PlaceholdersDetect  = template.Detect  // placeholders are unknown values (the default)
	PlaceholdersLiteral = template.Literal // placeholders are literal text: the files are rendered output
)

// Versions are the versions given on the command line ("" when not given).
type Versions = versions.Declared

// PanicError is a panic recovered in an evaluation worker (a bug, not a
// problem with the input); the command exits 3.
type PanicError = evaluate.PanicError

// Options are what a run reads besides its paths: the CLI's flags and
// .ckptlint.hcl. Each step takes only its part (see discoverOptions). The
// zero value lints with the embedded policies, no .ckptlint.hcl and
// GOMAXPROCS workers.
type Options struct {
	Config   *config.Config
	Versions Versions
	Workers  int
	// Overlay replaces or adds file contents by absolute path: `fix` lints
	// its planned edits in memory before writing anything.
	Overlay map[string][]byte
	// NoInlineIgnores disregards `ckptlint:ignore` comments in the files.
	NoInlineIgnores bool
	// Release holds a file's parsed entries and notices only while a
	// config set reading it is assembled or evaluated: discovery frees
	// them, and a set's files are parsed again when it is assembled
	// (docs/performance.md, "Memory at 10,000 sets"). Result.Sets then
	// keep, for each file, what ignores and reporters read: path, format,
	// bytes, includes, parse error and template mark (a Hadoop file with
	// xi:include keeps its entries: a later set may read it). `ckptlint
	// lint` sets it unless SARIF output needs the exact fix edits (which
	// re-read the entries); `fix` does not.
	Release bool
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
	// Now is the time facts blocks' ages are measured at (CKPT609); zero
	// means the clock.
	Now time.Time
	// Report, when set, receives the run's findings a group at a time, in
	// order (Group): each config set's as soon as it is done (a run
	// answered from the result cache hands them on at its end), then the
	// last group. Result.Findings, Suppressed and Sources are then empty.
	// An error from Report ends the run with that error.
	Report func(Group) error
	// MaxSets lowers the number of config sets the run lints (MaxSets
	// when 0 or above it); tests use it.
	MaxSets int
}

// MaxSets bounds the config sets one run lints: each is a policy
// evaluation and a group of findings, so a run's cost follows its sets,
// and files of one line each make as many as the input budget allows
// (issue 25: 40,000 one-line sets took 175 s and 1.12 GB with SARIF).
// bench/run.sh lints 10,000; docs/security.md gives what 20,000 cost.
// The sets past it are not linted: Result.Unlinted names them and the
// CLI exits 2, as for the input budget.
const MaxSets = 20000

// Unlinted are the config sets a run found past MaxSets and did not lint.
type Unlinted struct {
	Linted int      // the sets linted: the cap
	Count  int      // how many were not
	First  []string // the names of the first few, in set order
}

// maxUnlintedNamed is how many names Unlinted.First keeps.
const maxUnlintedNamed = 5

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
	// Unlinted, when not nil, are the config sets past MaxSets: every set
	// before them was linted, these were not (the CLI exits 2).
	Unlinted *Unlinted
	// Cached is set when the findings came from the result cache without
	// parsing: Sets then hold only their names, and Sources the bytes of
	// the files for snippets.
	Cached  bool
	Sources map[string][]byte
}

// Lint is a whole run: discover the files under paths, assemble them into
// config sets, evaluating each while the next are assembled (stream), and
// apply the ignore comments. The findings come in the order a report
// streams them (Group): with Options.Report each set's group is handed on
// as soon as the set is done, and the Result holds no findings.
//
// Result.Sources holds the bytes of every file a finding names. With
// Options.Release a run keeps nothing else of a set once its findings are
// in (docs/performance.md, "Memory at 10,000 sets"): Result.Sets hold
// only the sets' names, and the ignore comments are read from the files
// that mention ckptlint, noted as each set is done (sourceNotes).
func Lint(ctx context.Context, eng *engine.Engine, paths []string, opts Options) (*Result, error) {
	st, err := newStream(paths, opts, nil)
	if err != nil {
		return nil, err
	}
	var (
		sets  []*model.Set
		names []string // Release: the sets' names; the sets are built at the end
	)
	res := &Result{}
	out := opts.Report
	if out == nil {
		out = collect(res)
	}
	notes := &sourceNotes{overlay: opts.Overlay, readAgain: st.t.ReadAgain, kept: st.t.Kept}
	rules := evaluate.RuleSettings(opts.Config.RuleByID)
	g := newGrouper(eng.Rules(), rules, opts.NoInlineIgnores, out)
	err = evaluate.Each(ctx, eng, st.sets(), opts.Workers, rules, func(s *model.Set, fs []finding.Finding) error {
		defer st.done(s)
		srcs := notes.add(s, !opts.NoInlineIgnores)
		if opts.Release {
			names = append(names, s.Name)
		} else {
			sets = append(sets, s)
		}
		return g.set(s.Name, srcs, fs, func(path string) []byte { return notes.fileBytes(s, path) })
	})
	if err != nil {
		return nil, err
	}
	if err := st.err(); err != nil {
		return nil, err
	}
	if err := g.last(leftoverFindings(st.t, rules), notes.lastBytes); err != nil {
		return nil, err
	}
	if opts.Release {
		sets = namedSets(names)
	}
	t := st.t
	res.Sets, res.Files, res.Unread, res.Unlinted = sets, t.Len(), t.Unread(), st.unlinted
	return res, nil
}

// Discover walks paths and returns the config sets, in a stable order, and
// the number of files read.
func Discover(paths []string, opts Options) ([]*model.Set, int, error) {
	sets, t, err := assembleSets(paths, opts)
	if err != nil {
		return nil, 0, err
	}
	return sets, t.Len(), nil
}

// assembleSets runs the first two steps: discovery, then assembly (with
// version resolution).
func assembleSets(paths []string, opts Options) ([]*model.Set, *discover.Tree, error) {
	return assembleSetsWalking(paths, nil, opts, nil)
}

// assembleSetsWalking is assembleSets walking only walk, with the read
// boundary of the run over boundary (nil: of walk), recording what it
// looks at in obs (the result cache's incremental run; nil: nothing).
func assembleSetsWalking(walk, boundary []string, opts Options, obs *inputfs.Observer) ([]*model.Set, *discover.Tree, error) {
	do := discoverOptions(opts)
	do.Observer = obs
	do.BoundaryPaths = boundary
	t, err := discover.Walk(walk, do)
	if err != nil {
		return nil, nil, err
	}
	sets, err := assemble.Sets(t, opts.Config, resolver(opts, t, obs))
	if err != nil {
		return nil, nil, err
	}
	clock := factsClock(opts, t)
	for _, s := range sets {
		s.Facts = clock
	}
	return sets, t, nil
}

// resolver is the version resolver assembly uses for the files of t.
func resolver(opts Options, t *discover.Tree, obs *inputfs.Observer) *versions.Resolver {
	vers := &versions.Resolver{Declared: opts.Versions, Config: opts.Config, Display: t.Display, Observer: obs}
	if !opts.Unbounded {
		vers.Allow = func(dir string) bool { _, err := t.Check(dir); return err == nil }
	}
	return vers
}

// stream is a run's config sets as assembly completes them (lint/assemble
// Each), for a streaming run: discovery keeps each file's bytes, and with
// Options.Release not its parsed form (discover.Options.Lazy); a set's
// files are parsed again when it is assembled and freed once the caller is
// done with it (done). Peak memory then follows the few sets in flight
// rather than the whole tree (docs/performance.md, "Memory at 10,000
// sets"); what a run finds does not change (TestReleaseSameFindings).
type stream struct {
	t      *discover.Tree
	obs    *inputfs.Observer
	opts   Options
	clock  model.FactsClock
	mu     sync.Mutex
	held   map[*model.Set][]*parsed.File
	asmErr error
	// yielded counts the sets handed on; those past the run's MaxSets are
	// counted in unlinted instead.
	yielded  int
	unlinted *Unlinted
}

// errStopped ends assembly when the consumer of a stream stops early.
var errStopped = errors.New("stopped")

// newStream discovers the files under paths, recording what it and
// assembly look at in obs (nil: nothing).
func newStream(paths []string, opts Options, obs *inputfs.Observer) (*stream, error) {
	do := discoverOptions(opts)
	do.Observer = obs
	do.Lazy = opts.Release
	t, err := discover.Walk(paths, do)
	if err != nil {
		return nil, err
	}
	return &stream{t: t, obs: obs, opts: opts, clock: factsClock(opts, t), held: map[*model.Set][]*parsed.File{}}, nil
}

// sets assembles the config sets, yielding each when it is complete; an
// assembly error is in err once the loop is over. Assembly runs on a
// goroutine of its own (internal/ordered), so a panic in it (a bug) is
// recovered there and becomes a *PanicError, as in an evaluation worker.
func (st *stream) sets() iter.Seq[*model.Set] {
	return func(yield func(*model.Set) bool) {
		defer func() {
			if r := recover(); r != nil {
				st.asmErr = &PanicError{Value: r, Stack: debug.Stack()}
			}
		}()
		testPanic := os.Getenv("CKPTLINT_TEST_PANIC") == "assemble" // test hook: lint/panic_test.go, internal_error.txtar
		err := assemble.Each(st.t, st.opts.Config, resolver(st.opts, st.t, st.obs), func(s *model.Set, h []*parsed.File) error {
			if testPanic {
				panic("test hook: panic while assembling " + s.Name)
			}
			if st.yielded >= st.maxSets() {
				// Past the cap: assembled only to be counted and named.
				if st.unlinted == nil {
					st.unlinted = &Unlinted{Linted: st.yielded}
				}
				if st.unlinted.Count++; len(st.unlinted.First) < maxUnlintedNamed {
					st.unlinted.First = append(st.unlinted.First, s.Name)
				}
				for _, f := range h {
					st.t.Release(f)
				}
				return nil
			}
			st.yielded++
			s.Facts = st.clock
			st.mu.Lock()
			st.held[s] = h
			st.mu.Unlock()
			if !yield(s) {
				return errStopped
			}
			return nil
		})
		if err != nil && !errors.Is(err, errStopped) {
			st.asmErr = err
		}
	}
}

// maxSets is the run's cap on the sets it lints.
func (st *stream) maxSets() int {
	if n := st.opts.MaxSets; n > 0 && n < MaxSets {
		return n
	}
	return MaxSets
}

// done lets go of the files held for s: the caller has its findings.
func (st *stream) done(s *model.Set) {
	st.mu.Lock()
	h := st.held[s]
	delete(st.held, s)
	st.mu.Unlock()
	for _, f := range h {
		st.t.Release(f)
	}
}

// err is the assembly error, if any; read it after the loop over sets.
func (st *stream) err() error { return st.asmErr }

// factsClock is what the ages of .ckptlint.hcl's facts blocks are measured
// against in this run.
func factsClock(opts Options, t *discover.Tree) model.FactsClock {
	c := model.FactsClock{Now: opts.Now, MaxAge: opts.Config.MaxFactsAge()}
	if c.Now.IsZero() {
		c.Now = time.Now()
	}
	if opts.Config != nil && opts.Config.Path != "" {
		p := opts.Config.Path
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		c.ConfigFile = t.Display(p)
	}
	return c
}

// discoverOptions is the part of opts and .ckptlint.hcl discovery reads.
func discoverOptions(opts Options) discover.Options {
	cfg := opts.Config
	o := discover.Options{Overlay: opts.Overlay, Note: opts.Note, Unbounded: opts.Unbounded}
	if opts.Placeholders != "" {
		o.Literal = opts.Placeholders == PlaceholdersLiteral
	} else {
		o.Literal = cfg != nil && cfg.Placeholders == PlaceholdersLiteral
	}
	if cfg == nil {
		return o
	}
	o.Ignored = cfg.IgnoresPath
	for _, dep := range cfg.Deployments {
		o.Declared = append(o.Declared, cfg.Resolve(dep.FlinkConf))
		for _, p := range []string{dep.FlinkConf, dep.HadoopConf, dep.ClusterHDFSSite} {
			if p != "" {
				o.Named = append(o.Named, cfg.Resolve(p))
			}
		}
	}
	for _, to := range cfg.PathMappings {
		o.Named = append(o.Named, cfg.Resolve(to))
	}
	return o
}
