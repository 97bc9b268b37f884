package lint

import (
	"context"
	"time"

	"github.com/ckptlint/ckptlint/internal/assemble"
	"github.com/ckptlint/ckptlint/internal/cache"
	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/evaluate"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/template"
	"github.com/ckptlint/ckptlint/internal/versions"
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
// .ckptlint.hcl. Each step takes only its part (run.discoverOptions). The
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
	// last group. Result.Findings, Suppressed and Sources are then empty,
	// and Result.Sets hold only the sets' names: nothing of a set is kept
	// once its group is handed on (docs/performance.md, "Memory at 10,000
	// sets"). An error from Report ends the run with that error.
	Report func(Group) error
	// MaxSets lowers the number of config sets the run lints (MaxSets
	// when 0 or above it); tests use it.
	MaxSets int
	// NoEdits leaves the exact byte edits of the findings' fixes
	// (finding.Finding Edits) uncomputed: only SARIF's fixes show them
	// (report.ReadsEdits), and computing them parses each edited Flink
	// file twice more (the editor's parse and its verification), about a
	// fifth of a cold run on a tree with many fixable findings
	// (docs/performance.md). The operations of each fix are kept.
	NoEdits bool
	// Rules are the command line's rule selection (--enable-rule,
	// --disable-rule, --only-rule), applied over the rule blocks of Config
	// in the same report stage (RuleSetting).
	Rules RuleFlags
	// NoSources leaves Group.Sources (and Result.Sources) empty: the
	// caller's reports render no file's bytes (report.ReadsGroupSources),
	// so the run reads no file for them. A run answered from the result
	// cache then reads no file at all after its replay (Cache.fromEntry).
	NoSources bool
	// Replay, when set, is asked on a cache hit, before the stored
	// findings are decoded, whether the caller holds what it made of this
	// result last time: run is the run's key and entry the name of the
	// findings of the entry the result is (Cache.Reported gave both to the
	// run that made it). True ends the run there: no group is handed on, and the Result
	// is Replayed, with Files and no Sets (docs/cache.md, "Stored
	// reports").
	Replay func(run, entry cache.Key) bool
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
	// parsing: Sets then hold only their names.
	Cached bool
	// Replayed: Options.Replay answered the run (Cached is set too); no
	// group was handed on and Sets is empty.
	Replayed bool
	Sources  map[string][]byte
}

// Lint is a whole run (run.pipeline): discover the files under paths,
// assemble them into config sets and evaluate each on the worker pool
// while the next are assembled, then report each set's group, in set
// order, and the last group. With Options.Report each group is handed on
// as soon as it is complete and the Result holds no findings; without,
// the Result holds them all, the bytes of every file a finding names
// (Sources) and the sets parsed (fix plans its edits on them).
func Lint(ctx context.Context, eng *engine.Engine, paths []string, opts Options) (*Result, error) {
	r := newRun(opts, engineOf(eng), paths)
	res := &Result{}
	out := opts.Report
	if out == nil {
		out = collect(res)
	}
	rp := newReporter(eng.Rules(), opts, out, r.readSource)
	if err := r.pipeline(ctx, rp.set); err != nil {
		return nil, err
	}
	if err := rp.last(leftoverFindings(r.tree, rp.rules)); err != nil {
		return nil, err
	}
	res.Sets, res.Files, res.Unread, res.Unlinted = rp.setList(), r.tree.Len(), r.tree.Unread(), r.unlinted
	return res, nil
}

// Discover walks paths and returns the config sets, parsed and in a
// stable order, and the number of files read: the first steps of a run,
// without evaluating anything (`ckptlint inspect`, `init`).
func Discover(paths []string, opts Options) ([]*model.Set, int, error) {
	r := newRun(opts, nil, paths)
	var sets []*model.Set
	r.step = func(_ context.Context, r *run, p *assemble.Plan) (*setResult, error) {
		return &setResult{set: p.Parse(r.tree)}, nil
	}
	err := r.pipeline(context.Background(), func(res *setResult) error {
		sets = append(sets, res.set)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return sets, r.tree.Len(), nil
}
