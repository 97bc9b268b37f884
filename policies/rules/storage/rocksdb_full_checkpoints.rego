# METADATA
# title: RocksDB writes full checkpoints to HDFS
# description: |
#   With the rocksdb backend and incremental checkpoints off (the default of
#   execution.checkpointing.incremental, state.backend.incremental before Flink 1.20), every
#   checkpoint uploads the complete RocksDB state of every stateful task to HDFS, so the data
#   written per checkpoint, and the checkpoint duration, grow with the total state rather than
#   with what changed since the previous checkpoint. Flink's tuning guide names incremental
#   checkpoints "one of the first considerations" for reducing checkpoint time; they upload
#   only the new SST files and share the rest between checkpoints. ckptlint cannot see the
#   state size, so this is only a hint. Setting the option to true is the usual remedy; it is
#   not applied automatically because it changes the checkpoint layout (shared files under
#   shared/ that several checkpoints reference).
# related_resources:
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/ops/state/large_state_tuning/
#     description: Tuning checkpoints and large state, incremental checkpoints
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/ops/state/state_backends/#incremental-checkpoints
#     description: How RocksDB incremental checkpoints work
# custom:
#   id: CKPT505
#   name: rocksdb-full-checkpoints
#   severity: info
#   fixable: false
package ckptlint.rules.storage.rocksdb_full_checkpoints

import data.ckptlint.lib.flink
import data.ckptlint.lib.result
import data.ckptlint.lib.storage

inc := input.effective.checkpointing.incremental

backend := input.effective.state_backend.type

interval := input.effective.checkpointing.interval

rocksdb if storage.backend_name == "rocksdb"

rocksdb if storage.backend_name == "org.apache.flink.contrib.streaming.state.embeddedrocksdbstatebackendfactory"

inc_text := sprintf("%s is false at %s", [inc.key, storage.origin(inc)]) if {
	inc.set
} else := sprintf("%s unset, default false", [inc.key])

deny contains f if {
	flink.checkpointing
	rocksdb
	inc.value == false
	d := storage.dir
	storage.hdfs(d.value)
	f := result.finding(backend, result.msg(
		sprintf("RocksDB with incremental checkpoints off uploads the whole state every %s, so checkpoint time grows with the state.", [interval.display]),
		sprintf(
			"state backend rocksdb (%s at %s) with incremental checkpoints off (%s): every checkpoint, every %s (%s at %s), uploads the complete RocksDB state of every stateful task to %s, so the bytes written to HDFS and the checkpoint duration grow with the whole state instead of with what changed. Flink's tuning guide calls incremental checkpoints one of the first considerations for large state: set %s: true",
			[backend.key, storage.origin(backend), inc_text, interval.display, interval.key, storage.origin(interval), d.value, inc.key],
		),
	))
}
