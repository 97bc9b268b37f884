package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/ckptlint/ckptlint/internal/cache"
	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/internal/safetext"
	"github.com/ckptlint/ckptlint/internal/testhook"
	"github.com/ckptlint/ckptlint/lint"
)

// repoRoot is the nearest directory at or above dir holding .git, or ""
// (inputfs.RepoRoot).
func repoRoot(dir string) string { return inputfs.RepoRoot(dir) }

// setup loads .ckptlint.hcl and the policies and checks the one against the
// other. Problems are usage errors (exit 2), printed with source snippets.
func (g *globals) setup(ctx context.Context) (*config.Config, *engine.Engine, error) {
	cfg, eng, _, err := g.load(ctx, true)
	return cfg, eng, err
}

// setupRules is setup for the commands that only read rule metadata
// (rules, explain, completion): the builtin and embedded rules come from
// internal/rule's generated table, so no policy is compiled unless a user
// policy directory (--policy, policy_dirs) is named.
func (g *globals) setupRules(ctx context.Context) (*config.Config, []*rule.Rule, error) {
	cfg, _, rules, err := g.load(ctx, false)
	return cfg, rules, err
}

// loadConfig is the one loader of .ckptlint.hcl in cmd: --config, else the
// nearest one up to the repository root; nil without a file. An invalid
// file is a usage error, its diagnostics written to standard error.
func (g *globals) loadConfig() (*config.Config, *config.Diagnostics, error) {
	path := g.configPath
	if path == "" {
		if p, ok := config.Find(".", repoRoot(".")); ok {
			path = p
		}
	}
	if path == "" {
		return nil, nil, nil
	}
	c, diags := config.Load(path)
	if diags.HasErrors() {
		_ = diags.Write(g.stderr, false)
		return nil, nil, usageErr(fmt.Errorf("%s is not valid", path))
	}
	return c, diags, nil
}

// load is setup; without needEngine it compiles the policies only to
// learn the rules of user policy directories, and returns a nil engine
// otherwise. rules is the one rule list with those user rules merged in.
func (g *globals) load(ctx context.Context, needEngine bool) (cfg *config.Config, eng *engine.Engine, rules []*rule.Rule, err error) {
	switch g.placeholders {
	case "", lint.PlaceholdersDetect, lint.PlaceholdersLiteral:
	default:
		return nil, nil, nil, usageErr(fmt.Errorf("--placeholders %q: want detect or literal", g.placeholders))
	}
	for _, v := range []struct{ flag, value string }{{"--flink-version", g.flinkVersion}, {"--hadoop-version", g.hadoopVersion}} {
		if _, err := model.ParseVersion(v.value); v.value != "" && err != nil {
			return nil, nil, nil, usageErr(fmt.Errorf("%s: %w", v.flag, err))
		}
	}
	cfg, cdiags, err := g.loadConfig()
	if err != nil {
		return nil, nil, nil, err
	}
	dirs := append([]string(nil), g.policyDirs...)
	if cfg != nil {
		for _, d := range cfg.PolicyDirs {
			dirs = append(dirs, cfg.Resolve(d))
		}
	}
	rules = rule.All()
	if needEngine || len(dirs) > 0 {
		eng, err = engine.New(ctx, engine.Options{PolicyDirs: uniqueDirs(dirs)})
		if err != nil {
			// A broken user policy is the user's input; a broken embedded one
			// cannot pass the repository's own tests.
			return nil, nil, nil, usageErr(err)
		}
		rules = rule.With(eng.Rules())
	}
	if cfg != nil {
		var ids []string
		for _, r := range rules {
			ids = append(ids, r.ID)
		}
		if diags := cfg.Validate(ids); diags.HasErrors() {
			if cdiags == nil {
				cdiags = &config.Diagnostics{}
			}
			cdiags.Append(diags...)
			_ = cdiags.Write(g.stderr, false)
			return nil, nil, nil, usageErr(fmt.Errorf("%s is not valid", cfg.Path))
		}
	}
	return cfg, eng, rules, nil
}

func (g *globals) options(cfg *config.Config) lint.Options {
	o := lint.Options{Config: cfg, Versions: lint.Versions{Flink: g.flinkVersion, Hadoop: g.hadoopVersion},
		Note: g.noteOnce, Placeholders: g.placeholders, Now: g.now()}
	// Test hook (hostile_amplify.txtar): a lower cap on the config sets a
	// run lints than lint.MaxSets; it can only lower it.
	if n, err := strconv.Atoi(testhook.Env("CKPTLINT_TEST_MAX_SETS")); err == nil && n > 0 {
		o.MaxSets = n
	}
	return o
}

// now is the time facts' ages are measured at: CKPTLINT_NOW (RFC 3339), for
// reproducible runs and tests, else the clock (docs/config.md).
func (g *globals) now() time.Time {
	v := os.Getenv("CKPTLINT_NOW")
	if v == "" {
		return time.Now()
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		g.noteOnce(fmt.Sprintf("CKPTLINT_NOW=%q is not an RFC 3339 time such as 2026-12-01T08:00:00Z; facts' ages use the clock", v))
		return time.Now()
	}
	return t
}

// noteOnce prints a note on stderr, once per run (fix lints the same paths
// several times).
func (g *globals) noteOnce(msg string) {
	if g.noted == nil {
		g.noted = map[string]bool{}
	}
	if !g.noted[msg] {
		g.noted[msg] = true
		fmt.Fprintf(g.stderr, "ckptlint: note: %s\n", safetext.Text(msg))
	}
}

// uniqueDirs drops directories named twice (by --policy and policy_dirs,
// or as p and p/), so their rules are not loaded twice.
func uniqueDirs(dirs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range dirs {
		k, err := filepath.Abs(d)
		if err != nil {
			k = filepath.Clean(d)
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}

// setupCached is setup for a run with the result cache (docs/cache.md).
// With the embedded policies alone, their rules come from internal/rule's
// generated table and the policies are compiled only when some config set
// is not in the cache; a user policy directory is compiled at once, so a
// broken policy is reported whatever the cache holds. The store is nil
// with --no-cache, or when the default cache directory cannot be made.
func (g *globals) setupCached(ctx context.Context) (*config.Config, *lint.Cache, []*rule.Rule, error) {
	cfg, _, rules, err := g.load(ctx, false)
	if err != nil {
		return nil, nil, nil, err
	}
	dirs := append([]string(nil), g.policyDirs...)
	if cfg != nil {
		for _, d := range cfg.PolicyDirs {
			dirs = append(dirs, cfg.Resolve(d))
		}
	}
	lazy, err := engine.NewLazy(engine.Options{PolicyDirs: uniqueDirs(dirs)})
	if err != nil {
		return nil, nil, nil, usageErr(err)
	}
	if len(dirs) == 0 {
		lazy.SetRules(rule.Rego())
	}
	c := &lint.Cache{Policies: lazy}
	if c.Store, err = g.openCache(); err != nil {
		return nil, nil, nil, usageErr(err)
	}
	return cfg, c, rules, nil
}

// openCache opens the cache directory: --cache-dir, else
// $CKPTLINT_CACHE_DIR, else the user cache directory. A directory named by
// the flag or the variable that cannot be made is an error; the default
// one only turns the cache off.
func (g *globals) openCache() (*cache.Store, error) {
	if g.noCache {
		return nil, nil
	}
	dir, named := g.cacheDir, g.cacheDir != "" || os.Getenv(cache.EnvDir) != ""
	if dir == "" {
		var err error
		if dir, err = cache.DefaultDir(); err != nil {
			return nil, nil //nolint:nilerr // no user cache directory: lint without a cache
		}
	}
	var secret []byte
	if cache.InWorkTree(dir) {
		// A pull request can commit files here, and so an entry that
		// reports nothing: entries are used only when authenticated with a
		// secret the repository does not hold (docs/cache.md, "In the
		// repository").
		key := os.Getenv(cache.EnvKey)
		if key == "" {
			g.noteOnce(fmt.Sprintf("result cache not used: %s lies inside the repository, where a pull request can commit cache entries; set %s to a secret (a masked CI variable) to authenticate them, or keep the cache outside the checkout (docs/cache.md)", safetext.Path(dir), cache.EnvKey))
			return nil, nil
		}
		sum := sha256.Sum256([]byte(key))
		secret = sum[:]
	}
	s, err := cache.OpenKeyed(dir, 0, secret)
	if err != nil && named {
		return nil, fmt.Errorf("--cache-dir / %s: %w (or pass --no-cache)", cache.EnvDir, err)
	}
	if err != nil {
		return nil, nil //nolint:nilerr // the default directory cannot be made: lint without a cache
	}
	return s, nil
}
