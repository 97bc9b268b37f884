package config

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// clusterFactAttrs and deploymentFactAttrs are the attributes a facts block
// may name in a cluster and a deployment block: the observable ones, not
// paths or references.
var (
	clusterFactAttrs = []string{
		"datanodes", "datanode_free_bytes", "datanode_blocks", "datanode_blocks_scheduled",
		"datanode_hadoop_version", "taskmanagers", "slots_per_taskmanager", "hadoop_version",
		"min_block_size", "write_stall", "other_writers",
	}
	deploymentFactAttrs = []string{
		"flink_version", "jobs", "stateful_operators", "parallelism", "checkpoint_p99",
		"checkpoint_size", "checkpoint_failed", "running_checkpointing", "taskmanagers",
		"slots_per_taskmanager", "state_size",
	}
)

// isSet reports whether an optional attribute is written (its value may
// still be invalid; convert reports that).
func isSet(expr hcl.Expression) bool {
	if expr == nil {
		return false
	}
	v, diags := expr.Value(nil)
	return diags.HasErrors() || !v.IsNull()
}

// facts converts the facts blocks of one cluster or deployment block. Each
// listed attribute must be one the block may have (allowed), be set in it
// (set), and be listed by one facts block only.
func (k *checker) facts(block string, raws []rawFacts, allowed []string, set map[string]bool) []Facts {
	var out []Facts
	listed := map[string]hcl.Range{}
	for _, rf := range raws {
		f := Facts{Kind: rf.Kind, Source: rf.Source, DefRange: rf.DefRange}
		k.factKind(rf)
		k.factSource(rf)
		if rf.ObservedAtRange != (hcl.Range{}) {
			t, err := time.Parse(time.RFC3339, rf.ObservedAt)
			if err != nil {
				k.errorf(rf.ObservedAtRange, "Invalid observed_at",
					"The observed_at %q is not an RFC 3339 time; write it as %q (UTC).", rf.ObservedAt, "2026-12-01T08:00:00Z")
			} else {
				f.ObservedAt = t.UTC()
			}
		}
		names, ranges := k.strings(rf.Attributes)
		for i, a := range names {
			if !slices.Contains(allowed, a) {
				hint := didYouMean(a, allowed)
				if hint == "" {
					hint = fmt.Sprintf(" A %s block's facts may name %s.", block, strings.Join(quoteAll(allowed), ", "))
				}
				k.errorf(ranges[i], "Unknown fact attribute",
					"The facts attributes name %q, which is not an attribute of a %s block that facts describe.%s", a, block, hint)
				continue
			}
			if !set[a] {
				k.errorf(ranges[i], "Fact attribute not set",
					"The facts attributes name %q, which this %s block does not set; remove it from the list or set the attribute.", a, block)
				continue
			}
			if prev, dup := listed[a]; dup {
				k.errorf(ranges[i], "Duplicate fact attribute",
					"The attribute %q is already listed at %s; each attribute has one source.", a, prev.String())
				continue
			}
			listed[a] = ranges[i]
			f.Attributes = append(f.Attributes, a)
		}
		out = append(out, f)
	}
	return out
}

func (k *checker) factKind(rf rawFacts) {
	if slices.Contains(FactKinds, rf.Kind) {
		return
	}
	hint := didYouMean(rf.Kind, FactKinds)
	if hint == "" {
		hint = fmt.Sprintf(" Write one of %s.", strings.Join(quoteAll(FactKinds), ", "))
	}
	k.errorf(subjectRange(rf.KindRange, rf.DefRange), "Unknown fact source",
		"The facts source kind %q is not one ckptlint reads.%s", rf.Kind, hint)
}

// factSource checks that source is set and carries no credentials: the
// file is committed to the repository (docs/facts.md).
func (k *checker) factSource(rf rawFacts) {
	if rf.SourceRange == (hcl.Range{}) {
		return // gohcl reports it missing
	}
	if rf.Source == "" {
		k.errorf(rf.SourceRange, "Empty value", "The facts source must name the URL or file the values were read from.")
		return
	}
	if u, err := url.Parse(rf.Source); err == nil && u.User != nil {
		k.errorf(rf.SourceRange, "Credentials in facts source",
			"The facts source holds a user name or password (%s@); write the URL without them: this file is committed.", u.User.Username())
	}
}

// running converts a running_checkpointing block.
func (k *checker) running(rr rawRunning) *RunningCheckpointing {
	return &RunningCheckpointing{
		JobID:             k.str("job_id", rr.JobID, rr.JobIDRange),
		Interval:          k.duration("interval", rr.Interval),
		Timeout:           k.duration("timeout", rr.Timeout),
		MinPause:          k.duration("min_pause", rr.MinPause),
		MaxConcurrent:     k.count("max_concurrent", rr.MaxConcurrent, 1),
		TolerableFailures: k.count("tolerable_failures", rr.TolerableFailures, 0),
		Unaligned:         rr.Unaligned,
		DefRange:          rr.DefRange,
	}
}

// maxAge converts facts_max_age, which must be positive.
func (k *checker) maxAge(expr hcl.Expression) *time.Duration {
	d := k.duration("facts_max_age", expr)
	if d != nil && *d <= 0 {
		k.errorf(expr.Range(), "Invalid duration", "The facts_max_age must be more than zero, such as %q.", "30d")
		return nil
	}
	return d
}

func subjectRange(ranges ...hcl.Range) hcl.Range {
	for _, r := range ranges {
		if r != (hcl.Range{}) {
			return r
		}
	}
	return hcl.Range{}
}

func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
