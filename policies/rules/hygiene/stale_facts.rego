# METADATA
# title: Facts in .ckptlint.hcl are older than facts_max_age
# description: |
#   `ckptlint facts` records in a facts block where and when it read each cluster or deployment
#   value (free space and blocks per DataNode, scheduled blocks, the DataNodes' Hadoop version,
#   checkpoint durations and sizes, the running job's checkpoint settings). Those numbers change:
#   DataNodes fill up, jobs grow, the running job is redeployed. Rules that use facts observed
#   longer ago than facts_max_age (default 30 days) judge the cluster as it was then, so the facts
#   block is reported (info) with its source, date and age. Read the facts again with `ckptlint
#   facts` (docs/facts.md), or, after checking the values by hand, update observed_at; raise
#   facts_max_age where the numbers are known to change slowly. The age is measured at the time of
#   the run (CKPTLINT_NOW when set).
# related_resources:
#   - ref: https://github.com/ckptlint/ckptlint/blob/main/docs/config.md
#     description: facts blocks and facts_max_age in .ckptlint.hcl
# custom:
#   id: CKPT609
#   name: stale-facts
#   severity: info
#   fixable: false
package ckptlint.rules.hygiene.stale_facts

import data.ckptlint.lib.facts
import data.ckptlint.lib.result

deny contains f if {
	some [owner, b] in facts.stale_blocks
	f := result.info(null, result.msg(
		sprintf("The facts %q block of %s %q is %s old, older than facts_max_age %s: findings judge the %s as it was then.", [b.kind, owner, result.short(input[owner].name), b.age, input.facts.max_age, owner]),
		sprintf(
			"the facts %q block of %s %q%s (%s) was observed at %s, %s before this run %s, more than facts_max_age %s: findings that use them judge the %s as it was then. Run `ckptlint facts` again to refresh them, or update observed_at after checking the values; facts_max_age in .ckptlint.hcl sets the age",
			[b.kind, owner, input[owner].name, where(b), listed(b), b.observed_at, b.age, now, input.facts.max_age, owner],
		),
	))
}

where(b) := sprintf(" at %s", [b.at]) if b.at

else := ""

listed(b) := sprintf("%s from %s", [concat(", ", b.attributes), b.source]) if count(b.attributes) > 0

else := sprintf("from %s", [b.source])

now := sprintf("on %s", [input.facts.today]) if input.facts.today

else := "at the run's time"
