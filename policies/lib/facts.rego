# METADATA
# title: Where observed facts came from
# description: Helpers that cite the facts blocks of .ckptlint.hcl (the source and date `ckptlint facts` recorded for each attribute) in messages.
package ckptlint.lib.facts

# cite(block, attr) is "facts from <kind> <source>, <date>" for an attribute
# of input.cluster or input.deployment that a facts block supplied, else ""
# (docs/input.md).
cite(block, attr) := block.facts[attr].cite if block.facts[attr].cite

else := ""

# note(block, attr) is ", facts from …" to append after a value, or "".
note(block, attr) := sprintf(", %s", [cite(block, attr)]) if cite(block, attr) != ""

else := ""

# origin(block, attr, what) names where an attribute's value came from:
# "facts from jobmanager http://…, 2026-12-01" when observed, else what
# (such as "checkpoint_p99 in .ckptlint.hcl").
origin(block, attr, what) := sprintf("%s, %s", [what, cite(block, attr)]) if cite(block, attr) != ""

else := what

# observed(block, attr) is true when a facts block supplied the attribute.
observed(block, attr) if cite(block, attr) != ""

# stale_blocks are the facts blocks of the cluster and deployment whose
# observed_at is older than facts_max_age at the time of the run.
stale_blocks contains [owner, b] if {
	some owner in ["cluster", "deployment"]
	some b in object.get(input[owner], "fact_blocks", [])
	b.stale == true
}

# sources(block, attrs) names which of attrs were observed and where, grouped
# by facts block: "datanodes, datanode_free_bytes: facts from namenode
# http://…, 2026-12-01"; "" when none was.
sources(block, attrs) := concat("; ", [sprintf("%s: %s", [concat(", ", [a | some a in attrs; cite(block, a) == c]), c]) |
	some c in sort({cite(block, a) | some a in attrs; cite(block, a) != ""})
])

# observed_note(block, attrs) is " (observed: <sources>)", or "".
observed_note(block, attrs) := sprintf(" (observed: %s)", [sources(block, attrs)]) if sources(block, attrs) != ""

else := ""
