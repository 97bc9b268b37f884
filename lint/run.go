package lint

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/ckptlint/ckptlint/internal/assemble"
	"github.com/ckptlint/ckptlint/internal/deploy"
	"github.com/ckptlint/ckptlint/internal/deploy/scan"
	"github.com/ckptlint/ckptlint/internal/discover"
	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/evaluate"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/ordered"
	"github.com/ckptlint/ckptlint/internal/suppress"
	"github.com/ckptlint/ckptlint/internal/testhook"
	"github.com/ckptlint/ckptlint/internal/versions"
)

// run is one lint run: the pipeline and what its steps share. Lint makes
// one over the policies; the result cache (Cached) makes one whose file
// system records what it reads and whose per-set step skips the sets it
// has the findings of (cache.go). Nothing else differs between the two.
type run struct {
	opts  Options
	fs    inputfs.FS
	clock model.FactsClock
	// engine is the compiled policies, asked for at the first set to
	// evaluate (the result cache compiles nothing when no set needs it).
	engine func(context.Context) (*engine.Engine, error)
	// step is what a worker does with one set (evaluateSet); the result
	// cache wraps it.
	step func(ctx context.Context, r *run, p *assemble.Plan) (*setResult, error)
	// walk and boundary: the paths walked and the paths the read boundary
	// is made of (nil: walk's); the cache's run after an edit walks a few
	// directories within the boundary of the whole run.
	walk, boundary []string
	// scope are the paths the run was asked to lint, absolute (nil: none
	// named, the whole tree): a set is linted only when one of its files
	// lies under one of them (inScope). Deployment blocks are assembled
	// whatever the paths, so this is what narrows `lint PATH` to the sets
	// under PATH, each with its block applied (docs/config.md).
	scope []string

	tree *discover.Tree
	// clusters are what the deployment files describe (deployment).
	clusters *assemble.Deployment
	// yielded counts the sets assembly handed on; those past the run's cap
	// (maxSets) are counted in unlinted instead.
	yielded  int
	unlinted *Unlinted
}

// setResult is what a run knows of one config set once a worker is done
// with it: its findings before the rule blocks and the ignore comments
// apply (which the report stage applies, in set order), its ignore
// comments, and what the result cache keeps of it.
type setResult struct {
	Name string
	// Fingerprint hashes everything the findings depend on ("" when the
	// set cannot be fingerprinted: it is then not cached).
	Fingerprint string
	// Root is the directory, as the run names it, whose walk finds the
	// set; Members are the real paths of its files and xi:include targets.
	Root    string
	Members []string
	Pending []evaluate.Pending
	Sources []evaluate.Source
	// Deployed: the repository's deployment files made the set.
	Deployed bool

	// reused: the result cache had the set's result (Cache.step).
	reused bool
	// set is the parsed set (nil for one the cache answered); bytes gives
	// the bytes of a file by display path (nil from a stored entry).
	set   *model.Set
	bytes func(path string) []byte
}

// newRun is the run of Lint over paths.
func newRun(opts Options, eng func(context.Context) (*engine.Engine, error), paths []string) *run {
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	return &run{opts: opts, fs: inputfs.OS(), engine: eng, step: evaluateSet, walk: paths, scope: scopeOf(paths, opts.Overlay)}
}

// scopeOf is run.scope for the paths a run names. `helm template` output
// on standard input (scan.HelmStdin, in the overlay) is the only path
// walked, and its sets are located at the chart's templates on disk: the
// whole run is in scope.
func scopeOf(paths []string, overlay map[string][]byte) []string {
	var out []string
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil // walk reports the working directory
		}
		if _, ok := overlay[abs]; ok && filepath.Base(abs) == scan.HelmStdin {
			return nil
		}
		out = append(out, abs)
	}
	return out
}

// inScope reports whether a file of p (by its path or its real path) lies
// under one of the run's paths, or is one of them.
func (r *run) inScope(p *assemble.Plan) bool {
	if r.scope == nil {
		return true
	}
	for _, f := range p.Files() {
		for _, path := range []string{f.Path, f.Real} {
			if path != "" && slices.ContainsFunc(r.scope, func(root string) bool { return under(path, root) }) {
				return true
			}
		}
	}
	return false
}

// under reports whether path is root or lies below it.
func under(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// pipeline is the whole of a run, in the order of its steps:
//
//  1. index: walk the paths and read and classify every file
//     (internal/discover), within the boundary and the input budget;
//  2. per config set, as assembly completes it (internal/assemble, with the
//     set's versions from internal/versions) and on the ordered worker pool
//     (internal/ordered): parse its Hadoop files, evaluate the policies,
//     compute the exact edits of its fixes and read its ignore comments
//     (r.step: evaluateSet);
//  3. report each set's result, in set order (out).
//
// The run-level findings (the ignore comments' problems, known once every
// set is done) are the caller's last group (reporter.last).
func (r *run) pipeline(ctx context.Context, out func(*setResult) error) error {
	tree, err := discover.Walk(r.walk, r.discoverOptions())
	if err != nil {
		return err
	}
	r.tree = tree
	r.clock = factsClock(r.opts, tree)
	r.clusters = r.deployment()
	plans, asmErr := r.plans()
	err = ordered.Map(plans, r.opts.Workers, func(p *assemble.Plan) (res *setResult, err error) {
		defer func() {
			if v := recover(); v != nil {
				res, err = nil, &PanicError{Value: v, Stack: debug.Stack()}
			}
		}()
		return r.step(ctx, r, p)
	}, func(_ *assemble.Plan, res *setResult) error { return out(res) })
	if err != nil {
		return err
	}
	return *asmErr
}

// errStopped ends assembly when the consumer of the plans stops early.
var errStopped = errors.New("stopped")

// plans are the run's config sets as assembly completes them; an
// assembly error is in *err once the loop is over. Assembly runs on a
// goroutine of its own (internal/ordered), so a panic in it (a bug) is
// recovered there and becomes a *PanicError, as in a worker.
func (r *run) plans() (iter.Seq[*assemble.Plan], *error) {
	var asmErr error
	seq := func(yield func(*assemble.Plan) bool) {
		defer func() {
			if v := recover(); v != nil {
				asmErr = &PanicError{Value: v, Stack: debug.Stack()}
			}
		}()
		err := assemble.Each(r.tree, r.opts.Config, r.resolver(), r.clusters, func(p *assemble.Plan) error {
			if testhook.Env("CKPTLINT_TEST_PANIC") == "assemble" { // test hook: lint/panic_test.go, internal_error.txtar
				panic("test hook: panic while assembling " + p.Set.Name)
			}
			if !r.inScope(p) {
				return nil // a deployment's set outside the paths named
			}
			if r.yielded >= r.maxSets() {
				// Past the cap: assembled only to be counted and named.
				if r.unlinted == nil {
					r.unlinted = &Unlinted{Linted: r.yielded}
				}
				if r.unlinted.Count++; len(r.unlinted.First) < maxUnlintedNamed {
					r.unlinted.First = append(r.unlinted.First, p.Set.Name)
				}
				return nil
			}
			r.yielded++
			p.Set.Facts = r.clock
			if !yield(p) {
				return errStopped
			}
			return nil
		})
		if err != nil && !errors.Is(err, errStopped) {
			asmErr = err
		}
	}
	return seq, &asmErr
}

// deployment reads the deployment files discovery found
// (internal/deploy/scan) and joins them into the clusters the repository
// deploys (deploy.Resolve); their notes go where discovery's go.
func (r *run) deployment() *assemble.Deployment {
	srcs := r.tree.Sources()
	if len(srcs) == 0 {
		return nil
	}
	files := make([]scan.File, len(srcs))
	for i, s := range srcs {
		files[i] = scan.File{Path: s.Path, Disp: s.Disp, Kind: s.Kind, Src: s.Src}
	}
	m := scan.Model(files, repo{r.tree})
	for _, n := range m.Notes {
		r.tree.Note(n)
	}
	return &assemble.Deployment{Clusters: deploy.Resolve(m, r.tree.IsRepoFile), ConfigMaps: m.ConfigMaps}
}

// repo serves the deployment sources the repository's other files
// through discovery's boundary and budget (scan.Repo).
type repo struct{ t *discover.Tree }

func (p repo) Read(disp string) ([]byte, error)          { return p.t.ReadRepoFile(disp) }
func (p repo) List(dir string, max int) ([]string, bool) { return p.t.ListRepoDir(dir, max) }
func (p repo) Inside(disp string) bool                   { return p.t.InsideRepo(disp) }

// maxSets is the run's cap on the sets it lints (MaxSets, lowered by
// Options.MaxSets).
func (r *run) maxSets() int {
	if n := r.opts.MaxSets; n > 0 && n < MaxSets {
		return n
	}
	return MaxSets
}

// evaluateSet is a worker's step on one set: parse its Hadoop files,
// evaluate it, compute the exact edits of its fixes (evaluate.Edits;
// unless Options.NoEdits) and read its ignore comments, while its files
// are parsed.
func evaluateSet(ctx context.Context, r *run, p *assemble.Plan) (*setResult, error) {
	s := p.Parse(r.tree)
	eng, err := r.engine(ctx)
	if err != nil {
		return nil, err
	}
	ps, err := evaluate.Raw(ctx, eng, s)
	if err != nil {
		return nil, fmt.Errorf("config set %s: %w", s.Name, err)
	}
	if !r.opts.NoEdits {
		evaluate.Edits(s, ps)
	}
	return r.result(p, s, ps), nil
}

// result is the setResult of plan p, parsed as s, with findings ps.
func (r *run) result(p *assemble.Plan, s *model.Set, ps []evaluate.Pending) *setResult {
	return &setResult{Name: s.Name, Root: p.Root, Members: members(p), Pending: ps, Deployed: s.Deployed != nil,
		Sources: evaluate.Sources(s, ignores(p)), set: s, bytes: r.planBytes(p, s)}
}

// ignores are the ignore comments of the files of p and of the xi:include
// targets they read, each parsed once however many sets read the file
// (discover.Found Ignores).
func ignores(p *assemble.Plan) []*suppress.File {
	var out []*suppress.File
	for _, f := range p.Files() {
		out = append(out, f.Ignores())
		out = append(out, f.IncludeIgnores()...)
	}
	return mergeByPath(out)
}

// mergeByPath joins the ignore comments of files of one path (the texts
// written inside one deployment file: a ConfigMap's keys) into one: the
// Ignorer takes a path's first source only.
func mergeByPath(fs []*suppress.File) []*suppress.File {
	at := map[string]int{}
	var out []*suppress.File
	for _, f := range fs {
		if f == nil {
			continue
		}
		i, ok := at[f.Path]
		if !ok {
			at[f.Path] = len(out)
			out = append(out, f)
			continue
		}
		m := *out[i]
		m.Ignores = append(slices.Clip(m.Ignores), f.Ignores...)
		m.Problems = append(slices.Clip(m.Problems), f.Problems...)
		out[i] = &m
	}
	return out
}

// members are the real paths of the files of p and of the xi:include
// targets they read: a changed file makes the result cache walk the roots
// of the sets it is a member of again.
func members(p *assemble.Plan) []string {
	var out []string
	for _, f := range p.Files() {
		if f.Real != "" {
			out = append(out, f.Real)
		}
		out = append(out, f.IncludedReal()...)
	}
	return out
}

// included gives the bytes of an xi:include target a file of p read.
func included(p *assemble.Plan) func(path string) ([]byte, bool) {
	return func(path string) ([]byte, bool) {
		for _, f := range p.Files() {
			if b, ok := f.Included(path); ok {
				return b, true
			}
		}
		return nil, false
	}
}

// planBytes gives the bytes of a file a finding of p names, by display
// path, as the reporters show them: a file of the set as its parse read it
// (a Hadoop file in UTF-16 as its decoded text), an xi:include target as
// discovery read it, any other file (a version-evidence file,
// .ckptlint.hcl) read now, inside the run's boundary only (readSource). s
// may be nil: the set was not parsed (the result cache had its findings).
func (r *run) planBytes(p *assemble.Plan, s *model.Set) func(path string) []byte {
	return func(path string) []byte {
		if s != nil {
			for _, f := range s.Files() {
				if f != nil && f.Path == path && f.Src != nil {
					if f.Embed != nil {
						return f.Embed.Container // a text inside another file: that file
					}
					return f.Src
				}
			}
		}
		for _, f := range p.Files() {
			if f.Disp == path {
				return evaluate.Text(path, f.Bytes())
			}
		}
		if b, ok := included(p)(path); ok {
			return evaluate.Text(path, b)
		}
		return r.readSource(path)
	}
}

// readSource reads a file a finding names that no set holds, inside the
// run's boundary only and below its root's handle (discover.Tree
// ReadAgain); nil when it cannot be read. Such a file is one the run read
// (a version-evidence file; .ckptlint.hcl), so what this reads is bounded
// by the run's evidence budget.
func (r *run) readSource(path string) []byte {
	abs, err := filepath.Abs(filepath.FromSlash(path))
	if err != nil {
		return nil
	}
	if _, ok := r.opts.Overlay[abs]; ok || r.tree == nil {
		return evaluate.ReadSource(path, r.opts.Overlay)
	}
	if b, ok := r.tree.ReadAgain(abs); ok {
		return evaluate.Text(path, b)
	}
	return nil
}

// resolver is the version resolver assembly uses.
func (r *run) resolver() *versions.Resolver {
	t := r.tree
	vers := &versions.Resolver{Declared: r.opts.Versions, Config: r.opts.Config, Display: t.Display, FS: t.FS()}
	if !r.opts.Unbounded {
		vers.Allow = func(dir string) bool { _, err := t.Check(dir); return err == nil }
	}
	return vers
}

// discoverOptions is the part of the options and .ckptlint.hcl discovery
// reads.
func (r *run) discoverOptions() discover.Options {
	opts := r.opts
	cfg := opts.Config
	o := discover.Options{Overlay: opts.Overlay, Note: opts.Note, Unbounded: opts.Unbounded, FS: r.fs, BoundaryPaths: r.boundary}
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

// reporter is the report stage: it takes each set's result in set order,
// applies the rule blocks and rule flags (ruleSettings) and the ignore
// comments, and hands the group on
// (grouper); last makes the run-level group.
type reporter struct {
	g     *grouper
	rules evaluate.RuleSettings
	// mentions are the bytes of the files holding ignore comments, for the
	// last group's findings on them (CKPT001, CKPT002).
	mentions map[string][]byte
	read     func(path string) []byte // bytes of a file no set holds
	// keepSets keeps each set parsed (a run without Options.Report: fix
	// plans its edits on them); otherwise only the names are kept.
	keepSets bool
	sets     []*model.Set
	names    []string
}

func newReporter(policyRules []*engine.Rule, opts Options, out func(Group) error, read func(string) []byte) *reporter {
	rules := ruleSettings(opts)
	g := newGrouper(policyRules, rules, opts.NoInlineIgnores, out)
	g.noSources = opts.NoSources
	return &reporter{g: g, rules: rules, mentions: map[string][]byte{},
		read: read, keepSets: opts.Report == nil}
}

// set reports one set's result.
func (rp *reporter) set(res *setResult) error {
	rp.names = append(rp.names, res.Name)
	if rp.keepSets && res.set != nil {
		rp.sets = append(rp.sets, res.set)
	}
	bytes := res.bytes
	if bytes == nil {
		bytes = rp.read
	}
	for _, src := range res.Sources {
		if rp.g.noSources {
			break // mentions are read for the last group's Sources alone
		}
		if _, ok := rp.mentions[src.Path]; !ok {
			rp.mentions[src.Path] = bytes(src.Path)
		}
	}
	return rp.g.set(res.Name, res.Sources, evaluate.Settle(res.Pending, rp.rules), bytes)
}

// last hands on the last group, once every set is done: the ignore
// problems and extra (CKPT005 on the fix leftovers of the walk).
func (rp *reporter) last(extra []finding.Finding) error {
	return rp.g.last(extra, func(path string) []byte {
		if b, ok := rp.mentions[path]; ok {
			return b
		}
		return rp.read(path)
	})
}

// setList is the Sets of the run's Result: the sets parsed when they
// were kept, else sets holding only their names.
func (rp *reporter) setList() []*model.Set {
	if rp.keepSets && len(rp.sets) == len(rp.names) {
		return rp.sets
	}
	return namedSets(rp.names)
}

// namedSets are sets holding only the names given: one array for all, as
// a model.Set is 240 bytes, most of them unused here.
func namedSets(names []string) []*model.Set {
	named := make([]model.Set, len(names))
	sets := make([]*model.Set, len(names))
	for i, n := range names {
		named[i].Name = n
		sets[i] = &named[i]
	}
	return sets
}

// collect folds groups into res, for a run without Options.Report.
func collect(res *Result) func(Group) error {
	if res.Sources == nil {
		res.Sources = map[string][]byte{}
	}
	return func(g Group) error {
		res.Findings = append(res.Findings, g.Findings...)
		res.Suppressed = append(res.Suppressed, g.Suppressed...)
		for p, b := range g.Sources {
			res.Sources[p] = b
		}
		return nil
	}
}

// engineOf is an engine function for a compiled engine.
func engineOf(eng *engine.Engine) func(context.Context) (*engine.Engine, error) {
	return func(context.Context) (*engine.Engine, error) { return eng, nil }
}
