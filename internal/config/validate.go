package config

import (
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// Validate checks what Load cannot check alone: rule ids against
// knownRuleIDs (an unknown id is an error suggesting the nearest known id;
// a nil knownRuleIDs skips this check), deployment cluster references, and
// duplicate rule, cluster and deployment blocks (reported at the later
// block). Diagnostics come in file order; append them to Load's with
// Diagnostics.Append to print them with snippets.
func (c *Config) Validate(knownRuleIDs []string) hcl.Diagnostics {
	if c == nil {
		return nil
	}
	var diags hcl.Diagnostics
	diags = append(diags, duplicates("cluster", c.Clusters, func(cl Cluster) (string, hcl.Range) {
		return cl.Name, cl.DefRange
	})...)
	diags = append(diags, duplicates("deployment", c.Deployments, func(d Deployment) (string, hcl.Range) {
		return d.Name, d.DefRange
	})...)
	diags = append(diags, duplicates("rule", c.Rules, func(r Rule) (string, hcl.Range) {
		return r.ID, r.DefRange
	})...)
	diags = append(diags, c.unknownRules(knownRuleIDs)...)
	diags = append(diags, c.unknownClusters()...)
	diags = append(diags, c.sharedFlinkFacts()...)
	sortDiagnostics(diags)
	return diags
}

// duplicates reports every block whose label repeats an earlier block's.
func duplicates[T any](kind string, blocks []T, key func(T) (string, hcl.Range)) hcl.Diagnostics {
	var diags hcl.Diagnostics
	first := map[string]hcl.Range{}
	for _, b := range blocks {
		name, rng := key(b)
		prev, seen := first[name]
		if !seen {
			first[name] = rng
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Duplicate %s block", kind),
			Detail: fmt.Sprintf("A %s %q block is already defined at %s; merge the two blocks.",
				kind, name, prev.String()),
			Subject: subjectOf(rng),
		})
	}
	return diags
}

func (c *Config) unknownRules(known []string) hcl.Diagnostics {
	if known == nil {
		return nil
	}
	ids := make(map[string]bool, len(known))
	for _, id := range known {
		ids[id] = true
	}
	var diags hcl.Diagnostics
	for _, r := range c.Rules {
		if ids[r.ID] {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unknown rule",
			Detail:   fmt.Sprintf("There is no rule with the id %q.%s", r.ID, didYouMean(r.ID, known)),
			Subject:  subjectOf(r.IDRange, r.DefRange),
		})
	}
	return diags
}

func (c *Config) unknownClusters() hcl.Diagnostics {
	names := make([]string, 0, len(c.Clusters))
	for _, cl := range c.Clusters {
		names = append(names, cl.Name)
	}
	var diags hcl.Diagnostics
	for _, d := range c.Deployments {
		if d.Cluster == "" || c.ClusterByName(d.Cluster) != nil {
			continue
		}
		hint := didYouMean(d.Cluster, names)
		if hint == "" {
			hint = fmt.Sprintf(" Add a cluster %q block or remove the reference.", d.Cluster)
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unknown cluster",
			Detail:   fmt.Sprintf("Deployment %q refers to cluster %q, which no cluster block defines.%s", d.Name, d.Cluster, hint),
			Subject:  subjectOf(d.ClusterRange, d.DefRange),
		})
	}
	return diags
}

// sharedFlinkFacts reports the old shape gone wrong (issue 24): TaskManager
// or slot counts that `ckptlint facts` read from one Flink cluster and wrote
// into a cluster block, which two or more deployments use. Each Flink
// cluster has its own TaskManagers, so for all but one of them the value is
// another cluster's; typed by hand (no facts block lists it) it is the
// user's statement and stays valid, as does an observed value only one
// deployment uses.
func (c *Config) sharedFlinkFacts() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for i := range c.Clusters {
		cl := &c.Clusters[i]
		var attrs, users []string
		var from *Facts
		for _, a := range []struct {
			name string
			set  bool
			own  func(*Deployment) bool
		}{
			{"taskmanagers", cl.TaskManagers != nil, func(d *Deployment) bool { return d.TaskManagers != nil }},
			{"slots_per_taskmanager", cl.SlotsPerTaskManager != nil, func(d *Deployment) bool { return d.SlotsPerTaskManager != nil }},
		} {
			f := FactsFor(cl.Facts, a.name)
			if !a.set || f == nil {
				continue
			}
			var us []string
			for j := range c.Deployments {
				d := &c.Deployments[j]
				if c.ClusterFor(d) == cl && !a.own(d) {
					us = append(us, fmt.Sprintf("%q", d.Name))
				}
			}
			if len(us) < 2 {
				continue
			}
			attrs = append(attrs, a.name)
			if len(us) > len(users) {
				users = us
			}
			from = f
		}
		if len(attrs) == 0 {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Flink facts in a shared cluster block",
			Detail: fmt.Sprintf("Cluster %q holds %s from facts %q (%s, %s), but deployments %s run on it, and each Flink cluster has its own TaskManagers: "+
				"move them into the deployment block of the Flink cluster they were read from, or run ckptlint facts --deployment NAME on each one's source, "+
				"which writes them there and removes them from the cluster block.",
				cl.Name, strings.Join(attrs, ", "), from.Kind, from.Source, from.ObservedAt.Format(time.DateOnly), strings.Join(users, ", ")),
			Subject: subjectOf(from.DefRange, cl.DefRange),
		})
	}
	return diags
}

// subjectOf returns the first range that is set, or nil for a Config built
// in Go rather than loaded.
func subjectOf(ranges ...hcl.Range) *hcl.Range {
	for _, r := range ranges {
		if r != (hcl.Range{}) {
			return r.Ptr()
		}
	}
	return nil
}
