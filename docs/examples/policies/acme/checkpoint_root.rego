# METADATA
# title: Production checkpoints outside the team's directory on prod-nn
# description: |
#   On ACME's production clusters each team's Flink checkpoints live under
#   hdfs://prod-nn/flink/<team>/, where the platform team sets the team's HDFS quota,
#   permissions and snapshot schedule. A checkpoint directory anywhere else fills a shared
#   quota, is readable by other teams and is missing from the restore runbook. <team> is the
#   name of the config set's deployment block in .ckptlint.hcl; a production cluster is a
#   cluster block whose name starts with "prod". The URI is compared as written, so
#   hdfs:///flink/... (which depends on fs.default-scheme) and hdfs://prod-nn:8020/... are
#   reported too. Set the directory to hdfs://prod-nn/flink/<team>/checkpoints; moving it
#   changes where running jobs restore from, so there is no automatic fix: take a savepoint,
#   change the directory, restart from the savepoint.
# related_resources:
#   - ref: https://wiki.acme.example/platform/flink/storage-layout
#     description: ACME's HDFS layout for Flink state
# custom:
#   id: ACME001
#   name: checkpoint-dir-outside-team-root
#   severity: error
#   fixable: false
package ckptlint.rules.acme.checkpoint_root

import data.ckptlint.lib.result

# The production NameNode's directory that holds one directory per team.
root := "hdfs://prod-nn/flink/"

production if startswith(input.cluster.name, "prod")

team := input.deployment.name if input.deployment.declared

team_root := concat("", [root, team, "/"])

dir := input.effective.checkpointing.dir

# origin says where a value came from: "file:line", or Flink's default.
origin(v) := sprintf("%s:%d", [v.loc.file, v.loc.line]) if {
	v.loc
} else := "Flink's default"

# under is true when path is root itself or below it ("/flink/payments-old"
# is not below "/flink/payments/").
under(path, root) if startswith(concat("", [trim_right(path, "/"), "/"]), root)

deny contains f if {
	production
	team
	dir.set
	not under(dir.value, team_root)
	f := result.finding(dir, sprintf(
		"%s %s (at %s) is outside %s, the checkpoint directory of team %s on the production cluster %s: checkpoints written there fill a shared quota, are readable by other teams and are not in the restore runbook. Set %s to %scheckpoints, moving running jobs with a savepoint",
		[dir.key, dir.value, origin(dir), team_root, team, input.cluster.name, dir.key, team_root],
	))
}

deny contains f if {
	production
	dir.set
	not team
	f := result.info(dir, sprintf(
		"production cluster %s: checkpoints must live under %s<team>/, but no deployment block names this config set's team; declare deployment \"<team>\" { flink_conf = ... } in .ckptlint.hcl",
		[input.cluster.name, root],
	))
}
