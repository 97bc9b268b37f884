// Package evaluate is the last step of a lint run: it evaluates the
// policies on each assembled config set (Set), on a bounded worker pool
// that hands results back in the order of the sets (Each), and then applies
// the ckptlint:ignore comments of all the sets' files at once (Ignores).
//
// Set is the unit a result cache can sit on: its findings depend only on
// the prepared engine, the set (the bytes of the files s.Files() holds,
// with the xi:include targets each lists in Includes, and the versions and
// cluster facts assembly resolved) and the rule settings.
package evaluate

import (
	"context"
	"fmt"
	"iter"
	"slices"

	"github.com/ckptlint/ckptlint/internal/ordered"
	"github.com/ckptlint/ckptlint/lint/config"
	"github.com/ckptlint/ckptlint/lint/engine"
	"github.com/ckptlint/ckptlint/lint/finding"
	"github.com/ckptlint/ckptlint/lint/model"
)

// RuleSettings looks up the rule block .ckptlint.hcl holds for a rule id:
// (*config.Config).RuleByID. nil means no rule blocks.
type RuleSettings func(id string) *config.Rule

func (rs RuleSettings) lookup(id string) *config.Rule {
	if rs == nil {
		return nil
	}
	return rs(id)
}

// disabled reports whether a rule block turns the rule off.
func (rs RuleSettings) disabled(id string) bool {
	rc := rs.lookup(id)
	return rc != nil && rc.Enabled != nil && !*rc.Enabled
}

// apply applies the rule block of f's rule: false when the rule is off,
// else f with the block's severity.
func (rs RuleSettings) apply(f *finding.Finding) bool {
	rc := rs.lookup(f.RuleID)
	if rc == nil {
		return true
	}
	if rc.Enabled != nil && !*rc.Enabled {
		return false
	}
	if sev, err := finding.ParseSeverity(rc.Severity); rc.Severity != "" && err == nil {
		f.Severity = sev
	}
	return true
}

// Each evaluates the sets seq yields on up to workers goroutines
// (GOMAXPROCS when workers <= 0) and calls yield with each set's findings
// in the order of seq, as soon as that set and every set before it are
// done. It ranges over seq on a goroutine of its own while the workers
// evaluate (internal/ordered): a streaming run assembles the next sets
// meanwhile (lint/assemble Each) and holds only the parsed files of the
// few sets in between. The first error, from a set or from yield, stops
// the run and is returned, after seq's loop was left.
func Each(ctx context.Context, eng *engine.Engine, seq iter.Seq[*model.Set], workers int, rules RuleSettings,
	yield func(s *model.Set, fs []finding.Finding) error) error {
	return ordered.Map(seq, workers, func(s *model.Set) ([]finding.Finding, error) {
		fs, err := Set(ctx, eng, s, rules)
		if err != nil {
			return nil, fmt.Errorf("config set %s: %w", s.Name, err)
		}
		return fs, nil
	}, yield)
}

// RawAll evaluates the sets at the indexes in which (Raw) on up to
// workers goroutines (GOMAXPROCS when workers <= 0) and returns their
// pending findings by index. The first error stops the run.
func RawAll(ctx context.Context, eng *engine.Engine, sets []*model.Set, which []int, workers int) (map[int][]Pending, error) {
	out := make(map[int][]Pending, len(which))
	err := ordered.Map(slices.Values(which), min(workers, max(len(which), 1)), func(i int) ([]Pending, error) {
		ps, err := Raw(ctx, eng, sets[i])
		if err != nil {
			return nil, fmt.Errorf("config set %s: %w", sets[i].Name, err)
		}
		return ps, nil
	}, func(i int, ps []Pending) error {
		out[i] = ps
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
