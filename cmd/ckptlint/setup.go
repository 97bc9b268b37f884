package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ckptlint/ckptlint/internal/buildinfo"
	"github.com/ckptlint/ckptlint/lint/cache"
	"github.com/ckptlint/ckptlint/lint/finding"

	"github.com/ckptlint/ckptlint/lint"
	"github.com/ckptlint/ckptlint/lint/config"
	"github.com/ckptlint/ckptlint/lint/engine"
	"github.com/ckptlint/ckptlint/lint/inputfs"
	"github.com/ckptlint/ckptlint/lint/model"
)

// repoRoot is the nearest directory at or above dir holding .git, or ""
// (inputfs.RepoRoot).
func repoRoot(dir string) string { return inputfs.RepoRoot(dir) }

// setup loads .ckptlint.hcl and the policies and checks the one against the
// other. Problems are usage errors (exit 2), printed with source snippets.
func (g *globals) setup(ctx context.Context) (*config.Config, *engine.Engine, error) {
	cfg, cdiags, err := g.loadConfig()
	if err != nil {
		return nil, nil, err
	}
	eng, err := engine.New(ctx, g.policyOptions(cfg))
	if err != nil {
		// A broken user policy is the user's input; a broken embedded one
		// cannot pass the repository's own tests.
		return nil, nil, usageErr(err)
	}
	if err := g.validateConfig(cfg, cdiags, eng.Rules()); err != nil {
		return nil, nil, err
	}
	return cfg, eng, nil
}

// setupCached is setup for a run with the result cache (docs/cache.md):
// the policies are read and hashed but compiled only when some config set
// is not in the cache, and their rules' metadata comes from the cache when
// it holds it for this bundle. The cache is nil with --no-cache, or when
// the default cache directory cannot be made.
func (g *globals) setupCached(ctx context.Context) (*config.Config, *lint.Cache, []*engine.Rule, error) {
	cfg, cdiags, err := g.loadConfig()
	if err != nil {
		return nil, nil, nil, err
	}
	lazy, err := engine.NewLazy(g.policyOptions(cfg))
	if err != nil {
		return nil, nil, nil, usageErr(err)
	}
	c := &lint.Cache{Policies: lazy}
	if c.Store, err = g.openCache(); err != nil {
		return nil, nil, nil, usageErr(err)
	}
	// The rules' metadata is cached under the bundle's hash once the
	// bundle compiled: a bundle seen before is compiled only when a config
	// set misses, a new one (a user policy just edited) at once, so a
	// broken policy is reported whatever the cache holds.
	var rulesKey cache.Key
	if c.Store != nil {
		bi := buildinfo.Get()
		rulesKey = cache.NewHasher("ckptlint rules").String(bi.Version).String(bi.Commit).String(bi.GoVersion).String(lazy.Hash()).Sum()
		if b, ok := c.Store.Get(rulesKey); ok {
			var rules []*engine.Rule
			if json.Unmarshal(b, &rules) == nil && validRules(rules) {
				lazy.SetRules(rules)
			}
		}
	}
	rules, err := lazy.Rules()
	if err != nil {
		return nil, nil, nil, usageErr(err)
	}
	if !lazy.HasRules() {
		eng, err := lazy.Engine(ctx)
		if err != nil {
			return nil, nil, nil, usageErr(err)
		}
		rules = eng.Rules()
		if c.Store != nil {
			if b, err := json.Marshal(rules); err == nil {
				_ = c.Store.Put(rulesKey, b)
			}
		}
	}
	if err := g.validateConfig(cfg, cdiags, rules); err != nil {
		return nil, nil, nil, err
	}
	return cfg, c, rules, nil
}

// validRules checks rule metadata read from the cache.
func validRules(rules []*engine.Rule) bool {
	if len(rules) == 0 {
		return false
	}
	for _, r := range rules {
		if r == nil || r.ID == "" || r.Name == "" || r.Severity < finding.Info || r.Severity > finding.Error {
			return false
		}
	}
	return true
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
			return nil, nil
		}
	}
	s, err := cache.Open(dir, 0)
	if err != nil && named {
		return nil, fmt.Errorf("--cache-dir / %s: %w (or pass --no-cache)", cache.EnvDir, err)
	}
	if err != nil {
		return nil, nil
	}
	return s, nil
}

// loadConfig reads .ckptlint.hcl (--config, else found from the working
// directory) and checks the global flags.
func (g *globals) loadConfig() (*config.Config, *config.Diagnostics, error) {
	switch g.placeholders {
	case "", lint.PlaceholdersDetect, lint.PlaceholdersLiteral:
	default:
		return nil, nil, usageErr(fmt.Errorf("--placeholders %q: want detect or literal", g.placeholders))
	}
	for _, v := range []struct{ flag, value string }{{"--flink-version", g.flinkVersion}, {"--hadoop-version", g.hadoopVersion}} {
		if _, err := model.ParseVersion(v.value); v.value != "" && err != nil {
			return nil, nil, usageErr(fmt.Errorf("%s: %w", v.flag, err))
		}
	}
	path := g.configPath
	if path == "" {
		if p, ok := config.Find(".", repoRoot(".")); ok {
			path = p
		}
	}
	var cfg *config.Config
	var cdiags *config.Diagnostics
	if path != "" {
		c, diags := config.Load(path)
		if diags.HasErrors() {
			_ = diags.Write(g.stderr, false)
			return nil, nil, usageErr(fmt.Errorf("%s is not valid", path))
		}
		cfg, cdiags = c, diags
	}
	return cfg, cdiags, nil
}

// policyOptions names the policies: the embedded bundle, --policy and
// policy_dirs.
func (g *globals) policyOptions(cfg *config.Config) engine.Options {
	dirs := append([]string(nil), g.policyDirs...)
	if cfg != nil {
		for _, d := range cfg.PolicyDirs {
			dirs = append(dirs, cfg.Resolve(d))
		}
	}
	return engine.Options{PolicyDirs: uniqueDirs(dirs)}
}

// validateConfig checks .ckptlint.hcl against the rules.
func (g *globals) validateConfig(cfg *config.Config, cdiags *config.Diagnostics, rules []*engine.Rule) error {
	if cfg == nil {
		return nil
	}
	var ids []string
	for _, r := range append(lint.BuiltinRules(), rules...) {
		ids = append(ids, r.ID)
	}
	if diags := cfg.Validate(ids); diags.HasErrors() {
		if cdiags == nil {
			cdiags = &config.Diagnostics{}
		}
		cdiags.Append(diags...)
		_ = cdiags.Write(g.stderr, false)
		return usageErr(fmt.Errorf("%s is not valid", cfg.Path))
	}
	return nil
}

func (g *globals) options(cfg *config.Config) lint.Options {
	return lint.Options{Config: cfg, Versions: lint.Versions{Flink: g.flinkVersion, Hadoop: g.hadoopVersion},
		Note: g.noteOnce, Placeholders: g.placeholders}
}

// noteOnce prints a note on stderr, once per run (fix lints the same paths
// several times).
func (g *globals) noteOnce(msg string) {
	if g.noted == nil {
		g.noted = map[string]bool{}
	}
	if !g.noted[msg] {
		g.noted[msg] = true
		fmt.Fprintf(g.stderr, "ckptlint: note: %s\n", msg)
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
