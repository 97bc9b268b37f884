package model

import (
	"fmt"
	"strings"
	"time"

	"github.com/ckptlint/ckptlint/internal/config"
)

// factsClockInput is input.facts: what staleness is measured against.
func factsClockInput(c FactsClock) map[string]any {
	maxAge := c.MaxAge
	if maxAge <= 0 {
		maxAge = config.DefaultFactsMaxAge
	}
	m := map[string]any{"max_age_ms": maxAge.Milliseconds(), "max_age": durationText(maxAge)}
	if !c.Now.IsZero() {
		// The day, not the instant: a result from the cache (keyed by
		// FactsState) and a fresh one agree.
		m["today"] = c.Now.UTC().Format(time.DateOnly)
	}
	if c.ConfigFile != "" {
		m["config_file"] = c.ConfigFile
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

// factsInput adds the facts blocks of a cluster or deployment block to m:
// fact_blocks lists every block, facts maps each attribute to the block
// that supplied it.
func factsInput(m map[string]any, facts []config.Facts, c FactsClock) {
	blocks := []any{}
	byAttr := map[string]any{}
	for _, f := range facts {
		fm := factInput(f, c)
		blocks = append(blocks, fm)
		for _, a := range f.Attributes {
			byAttr[a] = fm // the last block that lists a wins (config.FactsFor)
		}
	}
	m["fact_blocks"] = blocks
	m["facts"] = byAttr
}

func factInput(f config.Facts, c FactsClock) map[string]any {
	attrs := []any{}
	for _, a := range f.Attributes {
		attrs = append(attrs, a)
	}
	date := f.ObservedAt.Format(time.DateOnly)
	m := map[string]any{
		"kind":        f.Kind,
		"source":      f.Source,
		"observed_at": f.ObservedAt.Format(time.RFC3339),
		"date":        date,
		"attributes":  attrs,
		"cite":        fmt.Sprintf("facts from %s %s, %s", f.Kind, f.Source, date),
	}
	if c.ConfigFile != "" && f.DefRange.Start.Line > 0 {
		m["at"] = fmt.Sprintf("%s:%d", c.ConfigFile, f.DefRange.Start.Line)
	}
	if !c.Now.IsZero() {
		maxAge := c.MaxAge
		if maxAge <= 0 {
			maxAge = config.DefaultFactsMaxAge
		}
		age := c.Now.Sub(f.ObservedAt)
		m["age_ms"] = age.Milliseconds()
		m["age"] = ageText(age)
		m["stale"] = age > maxAge
	}
	return m
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
func runningInput(r *config.RunningCheckpointing, c FactsClock) map[string]any {
	m := map[string]any{}
	if r.JobID != "" {
		m["job_id"] = r.JobID
	}
	for k, d := range map[string]*time.Duration{"interval_ms": r.Interval, "timeout_ms": r.Timeout, "min_pause_ms": r.MinPause} {
		if d != nil {
			m[k] = d.Milliseconds()
		}
	}
	for k, n := range map[string]*int{"max_concurrent": r.MaxConcurrent, "tolerable_failures": r.TolerableFailures} {
		if n != nil {
			m[k] = *n
		}
	}
	if r.Unaligned != nil {
		m["unaligned"] = *r.Unaligned
	}
	if c.ConfigFile != "" && r.DefRange.Start.Line > 0 {
		m["at"] = fmt.Sprintf("%s:%d", c.ConfigFile, r.DefRange.Start.Line)
	}
	return m
}
