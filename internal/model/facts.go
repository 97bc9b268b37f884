package model

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/ckptlint/ckptlint/internal/config"
)

// factsClockInput is input.facts: what staleness is measured against.
func factsClockInput(c FactsClock) object {
	maxAge := c.MaxAge
	if maxAge <= 0 {
		maxAge = config.DefaultFactsMaxAge
	}
	m := newObject(4)
	m.num64("max_age_ms", maxAge.Milliseconds())
	m.str("max_age", durationText(maxAge))
	if !c.Now.IsZero() {
		// The day, not the instant: a result from the cache (keyed by
		// FactsState) and a fresh one agree.
		m.str("today", c.Now.UTC().Format(time.DateOnly))
	}
	if c.ConfigFile != "" {
		m.str("config_file", c.ConfigFile)
	}
	return m
}

// FactsState is what the findings of a run take from the clock, for the
// result cache's key (lint/cached.go): the day, and for every facts block
// of cfg its age as messages render it (ageText) and whether it is stale.
// Between two runs with the same FactsState, no finding changes with the
// clock.
func FactsState(cfg *config.Config, c FactsClock) string {
	var b strings.Builder
	b.WriteString(c.Now.UTC().Format(time.DateOnly))
	if cfg == nil || c.Now.IsZero() {
		return b.String()
	}
	maxAge := c.MaxAge
	if maxAge <= 0 {
		maxAge = config.DefaultFactsMaxAge
	}
	add := func(facts []config.Facts) {
		for _, f := range facts {
			age := c.Now.Sub(f.ObservedAt)
			fmt.Fprintf(&b, "|%s %v", ageText(age), age > maxAge)
		}
	}
	for _, cl := range cfg.Clusters {
		add(cl.Facts)
	}
	for _, d := range cfg.Deployments {
		add(d.Facts)
	}
	return b.String()
}

// durationText renders a facts_max_age for messages: "30 days", "12h0m0s".
func durationText(d time.Duration) string {
	const day = 24 * time.Hour
	switch {
	case d == day:
		return "1 day"
	case d%day == 0:
		return fmt.Sprintf("%d days", d/day)
	}
	return d.String()
}

// factsInput is the facts blocks of a cluster or deployment block:
// fact_blocks lists every block, facts maps each attribute to the block
// that supplied it.
func factsInput(facts []config.Facts, c FactsClock) (blocks *ast.Term, byAttr factsByAttr) {
	list := make([]*ast.Term, 0, len(facts))
	for _, f := range facts {
		fm := factInput(f, c)
		list = append(list, fm)
		for _, a := range f.Attributes {
			byAttr.put(a, fm) // the last block that lists a wins (config.FactsFor)
		}
	}
	return ast.ArrayTerm(list...), byAttr
}

// factsByAttr is the facts object of a block: each attribute once, with
// the block put last for it.
type factsByAttr struct {
	attrs []string
	facts []*ast.Term
}

func (b *factsByAttr) put(attr string, fact *ast.Term) {
	if i := slices.Index(b.attrs, attr); i >= 0 {
		b.facts[i] = fact
		return
	}
	b.attrs = append(b.attrs, attr)
	b.facts = append(b.facts, fact)
}

func (b *factsByAttr) object() ast.Value {
	m := newObject(len(b.attrs))
	for i, a := range b.attrs {
		m.term(a, b.facts[i])
	}
	return m.object()
}

func factInput(f config.Facts, c FactsClock) *ast.Term {
	date := f.ObservedAt.Format(time.DateOnly)
	m := newObject(10)
	m.str("kind", f.Kind)
	m.str("source", f.Source)
	m.str("observed_at", f.ObservedAt.Format(time.RFC3339))
	m.str("date", date)
	m.term("attributes", stringsTerm(f.Attributes))
	m.str("cite", fmt.Sprintf("facts from %s %s, %s", f.Kind, f.Source, date))
	if c.ConfigFile != "" && f.DefRange.Start.Line > 0 {
		m.str("at", fmt.Sprintf("%s:%d", c.ConfigFile, f.DefRange.Start.Line))
	}
	if !c.Now.IsZero() {
		maxAge := c.MaxAge
		if maxAge <= 0 {
			maxAge = config.DefaultFactsMaxAge
		}
		age := c.Now.Sub(f.ObservedAt)
		m.num64("age_ms", age.Milliseconds())
		m.str("age", ageText(age))
		m.flag("stale", age > maxAge)
	}
	return m.objectTerm()
}

// ageText renders an age for messages in whole days, or hours below two
// days, or "in the future".
func ageText(d time.Duration) string {
	switch {
	case d < 0:
		return "in the future"
	case d < 48*time.Hour:
		return fmt.Sprintf("%d hours", int64(d/time.Hour))
	}
	return fmt.Sprintf("%d days", int64(d/(24*time.Hour)))
}

// runningInput is deployment.running_checkpointing: durations in
// milliseconds, absent fields not written.
func runningInput(r *config.RunningCheckpointing, c FactsClock) object {
	m := newObject(8)
	if r.JobID != "" {
		m.str("job_id", r.JobID)
	}
	for _, d := range []struct {
		k string
		d *time.Duration
	}{{"interval_ms", r.Interval}, {"timeout_ms", r.Timeout}, {"min_pause_ms", r.MinPause}} {
		if d.d != nil {
			m.num64(d.k, d.d.Milliseconds())
		}
	}
	for _, n := range []struct {
		k string
		n *int
	}{{"max_concurrent", r.MaxConcurrent}, {"tolerable_failures", r.TolerableFailures}} {
		if n.n != nil {
			m.num(n.k, *n.n)
		}
	}
	if r.Unaligned != nil {
		m.flag("unaligned", *r.Unaligned)
	}
	if c.ConfigFile != "" && r.DefRange.Start.Line > 0 {
		m.str("at", fmt.Sprintf("%s:%d", c.ConfigFile, r.DefRange.Start.Line))
	}
	return m
}
