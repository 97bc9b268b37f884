package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ckptlint/ckptlint/lint"
	"github.com/ckptlint/ckptlint/lint/config"
	"github.com/ckptlint/ckptlint/lint/engine"
)

// repoRoot is the nearest directory at or above dir holding .git, or "".
func repoRoot(dir string) string {
	d, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		p := filepath.Dir(d)
		if p == d {
			return ""
		}
		d = p
	}
}

// setup loads .ckptlint.hcl and the policies and checks the one against the
// other. Problems are usage errors (exit 2), printed with source snippets.
func (g *globals) setup(ctx context.Context) (*config.Config, *engine.Engine, error) {
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
	dirs := append([]string(nil), g.policyDirs...)
	if cfg != nil {
		for _, d := range cfg.PolicyDirs {
			dirs = append(dirs, cfg.Resolve(d))
		}
	}
	eng, err := engine.New(ctx, engine.Options{PolicyDirs: uniqueDirs(dirs)})
	if err != nil {
		// A broken user policy is the user's input; a broken embedded one
		// cannot pass the repository's own tests.
		return nil, nil, usageErr(err)
	}
	if cfg != nil {
		var ids []string
		for _, r := range append(lint.BuiltinRules(), eng.Rules()...) {
			ids = append(ids, r.ID)
		}
		if diags := cfg.Validate(ids); diags.HasErrors() {
			if cdiags == nil {
				cdiags = &config.Diagnostics{}
			}
			cdiags.Append(diags...)
			_ = cdiags.Write(g.stderr, false)
			return nil, nil, usageErr(fmt.Errorf("%s is not valid", cfg.Path))
		}
	}
	return cfg, eng, nil
}

func (g *globals) options(cfg *config.Config) lint.Options {
	return lint.Options{Config: cfg, Versions: lint.Versions{Flink: g.flinkVersion, Hadoop: g.hadoopVersion},
		Note: func(msg string) { fmt.Fprintf(g.stderr, "ckptlint: note: %s\n", msg) }}
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
