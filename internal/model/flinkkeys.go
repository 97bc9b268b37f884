package model

// valueType is how Flink reads a key's value.
type valueType int

const (
	tString   valueType = iota
	tDuration           // Flink Duration; effective value in milliseconds
	tMemory             // Flink MemorySize; effective value in bytes
	tInt
	tBool
	tEnum // case-insensitive match against Enum
)

// name is one spelling of a key with the Flink versions that read it:
// [Since, Until). A zero Until means still read. DeprecatedFrom marks the
// version from which Flink logs it as deprecated.
type name struct {
	Key            string
	Since, Until   Version
	DeprecatedFrom Version
	// Ref is the upstream source for Since / DeprecatedFrom / Until: the
	// JIRA issue or the ConfigOptions class of the release that made the
	// change (docs/versions.md lists them).
	Ref string
}

// keyDef describes one effective Flink setting: where it lands in
// input.effective, the spellings Flink tries in order (exact key, then
// fallback and deprecated keys: Flink 1.20 Configuration.applyWithOption
// and ConfigOption.java L149-157), its type and its default.
type keyDef struct {
	Field   string // "<section>.<name>" in input.effective
	Names   []name
	Type    valueType
	Enum    []string
	Default func(v Version) any // nil: no default (unset)
}

func always(x any) func(Version) any { return func(Version) any { return x } }

var (
	v1_0  = V(1, 0)
	v1_5  = V(1, 5)
	v1_10 = V(1, 10)
	v1_11 = V(1, 11)
	v1_13 = V(1, 13)
	v1_15 = V(1, 15)
	v1_17 = V(1, 17)
	v1_19 = V(1, 19)
	v1_20 = V(1, 20)
	v2_0  = V(2, 0)
)

const minute = 60 * 1000

// flinkKeys is the catalogue of checkpoint and state keys; each name
// cites its upstream source in Ref. Order of
// Names is Flink's lookup order for a version that reads several of them.
var flinkKeys = []keyDef{
	{Field: "checkpointing.interval", Type: tDuration, Names: []name{{Key: "execution.checkpointing.interval", Since: v1_10, Ref: "FLINK-14788: ExecutionCheckpointingOptions (1.10)"}}},
	{Field: "checkpointing.timeout", Type: tDuration, Default: always(int64(10 * minute)),
		Names: []name{{Key: "execution.checkpointing.timeout", Since: v1_10, Ref: "FLINK-14788: ExecutionCheckpointingOptions (1.10)"}}},
	{Field: "checkpointing.min_pause", Type: tDuration, Default: always(int64(0)),
		Names: []name{{Key: "execution.checkpointing.min-pause", Since: v1_10, Ref: "FLINK-14788: ExecutionCheckpointingOptions (1.10)"}}},
	{Field: "checkpointing.max_concurrent", Type: tInt, Default: always(1),
		Names: []name{{Key: "execution.checkpointing.max-concurrent-checkpoints", Since: v1_10, Ref: "FLINK-14788: ExecutionCheckpointingOptions (1.10)"}}},
	{Field: "checkpointing.tolerable_failed", Type: tInt, Default: always(0), // effective 0 before 1.19 too (CheckpointConfig orElse(0))
		Names: []name{{Key: "execution.checkpointing.tolerable-failed-checkpoints", Since: v1_10, Ref: "FLINK-14788: ExecutionCheckpointingOptions (1.10)"}}},
	{Field: "checkpointing.mode", Type: tEnum, Enum: []string{"EXACTLY_ONCE", "AT_LEAST_ONCE"}, Default: always("EXACTLY_ONCE"),
		Names: []name{{Key: "execution.checkpointing.mode", Since: v1_10, Ref: "FLINK-14788: ExecutionCheckpointingOptions (1.10)"}}},
	{Field: "checkpointing.unaligned", Type: tBool, Default: always(false), Names: []name{
		{Key: "execution.checkpointing.unaligned.enabled", Since: v1_17, Ref: "FLINK-29372 (1.17 release notes)"},
		{Key: "execution.checkpointing.unaligned", Since: v1_11, DeprecatedFrom: v1_17, Ref: "FLINK-16587 (1.11); deprecated by FLINK-29372 (1.17)"}}},
	{Field: "checkpointing.aligned_checkpoint_timeout", Type: tDuration, Default: always(int64(0)), Names: []name{
		{Key: "execution.checkpointing.aligned-checkpoint-timeout", Since: v1_13, Ref: "ExecutionCheckpointingOptions, release-1.13"},
		{Key: "execution.checkpointing.alignment-timeout", Since: v1_11, DeprecatedFrom: v1_13, Ref: "ExecutionCheckpointingOptions, release-1.11 / release-1.13"}}},
	{Field: "checkpointing.externalized_retention", Type: tEnum,
		Enum:    []string{"DELETE_ON_CANCELLATION", "RETAIN_ON_CANCELLATION", "NO_EXTERNALIZED_CHECKPOINTS"},
		Default: always("NO_EXTERNALIZED_CHECKPOINTS"),
		Names:   []name{{Key: "execution.checkpointing.externalized-checkpoint-retention", Since: v1_10, Ref: "FLINK-14788: ExecutionCheckpointingOptions (1.10)"}}},
	{Field: "checkpointing.storage", Type: tString, Names: []name{
		{Key: "execution.checkpointing.storage", Since: v1_20, Ref: "FLINK-34482 (1.20 release notes)"},
		{Key: "state.checkpoint-storage", Since: v1_13, DeprecatedFrom: v1_20, Ref: "FLINK-19465 (1.13); deprecated by FLINK-34482 (1.20)"}}},
	{Field: "checkpointing.dir", Type: tString, Names: []name{
		{Key: "execution.checkpointing.dir", Since: v1_20, Ref: "FLINK-34482 (1.20 release notes)"},
		{Key: "state.checkpoints.dir", Since: v1_0, DeprecatedFrom: v1_20, Ref: "FLINK-4512 (before 1.5); deprecated by FLINK-34482 (1.20)"},
		// Flink 1.5 made state.checkpoints.dir the key of the filesystem
		// backend's directory, with this one as its deprecated key
		// (CheckpointingOptions.CHECKPOINTS_DIRECTORY, release-1.5); on 1.4
		// this key is the only one the backend reads (1.4.2:
		// FsStateBackendFactory.CHECKPOINT_DIRECTORY_URI_CONF_KEY; 1.6.0:
		// CHECKPOINTS_DIRECTORY.withDeprecatedKeys("state.backend.fs.checkpointdir")).
		{Key: "state.backend.fs.checkpointdir", Since: v1_0, DeprecatedFrom: v1_5, Ref: "CheckpointingOptions.CHECKPOINTS_DIRECTORY, release-1.5 (deprecated key of state.checkpoints.dir)"}}},
	{Field: "checkpointing.savepoint_dir", Type: tString, Names: []name{
		{Key: "execution.checkpointing.savepoint-dir", Since: v1_20, Ref: "FLINK-34482 (1.20 release notes)"},
		{Key: "state.savepoints.dir", Since: v1_0, DeprecatedFrom: v1_20, Ref: "deprecated by FLINK-34482 (1.20)"},
		{Key: "savepoints.state.backend.fs.dir", Since: v1_0, DeprecatedFrom: v1_0}}},
	{Field: "checkpointing.num_retained", Type: tInt, Default: always(1), Names: []name{
		{Key: "execution.checkpointing.num-retained", Since: v1_20, Ref: "FLINK-34482 (1.20 release notes)"},
		{Key: "state.checkpoints.num-retained", Since: v1_0, DeprecatedFrom: v1_20, Ref: "deprecated by FLINK-34482 (1.20)"}}},
	{Field: "checkpointing.incremental", Type: tBool, Default: always(false), Names: []name{
		{Key: "execution.checkpointing.incremental", Since: v1_20, Ref: "FLINK-34482 (1.20 release notes)"},
		{Key: "state.backend.incremental", Since: v1_5, DeprecatedFrom: v1_20, Ref: "FLINK-7925 (1.5); deprecated by FLINK-34482 (1.20)"}}},
	{Field: "checkpointing.data_inline_threshold", Type: tMemory, Default: always(int64(20 * 1024)), Names: []name{
		{Key: "execution.checkpointing.data-inline-threshold", Since: v1_20, Ref: "FLINK-34482 (1.20 release notes)"},
		{Key: "state.storage.fs.memory-threshold", Since: v1_13, DeprecatedFrom: v1_20, Ref: "FLINK-19467 (1.13); deprecated by FLINK-34482 (1.20)"},
		{Key: "state.backend.fs.memory-threshold", Since: v1_0, DeprecatedFrom: v1_13, Ref: "deprecated by FLINK-19467 (1.13)"}}},
	{Field: "checkpointing.write_buffer_size", Type: tInt, Default: always(4096), Names: []name{
		{Key: "execution.checkpointing.write-buffer-size", Since: v1_20, Ref: "FLINK-34482 (1.20 release notes)"},
		{Key: "state.storage.fs.write-buffer-size", Since: v1_13, DeprecatedFrom: v1_20, Ref: "FLINK-19467 (1.13); deprecated by FLINK-34482 (1.20)"},
		{Key: "state.backend.fs.write-buffer-size", Since: V(1, 9), DeprecatedFrom: v1_13, Ref: "FLINK-11869 (1.9); deprecated by FLINK-19467 (1.13)"}}},
	{Field: "checkpointing.create_subdir", Type: tBool, Default: always(true), Names: []name{
		{Key: "execution.checkpointing.create-subdir", Since: v1_20, Ref: "FLINK-34482 (1.20 release notes)"},
		{Key: "state.checkpoints.create-subdir", Since: v1_19, DeprecatedFrom: v1_20, Ref: "FLINK-33057 (1.19); deprecated by FLINK-34482 (1.20)"}}},
	{Field: "checkpointing.file_merging", Type: tBool, Default: always(false), Names: []name{
		{Key: "execution.checkpointing.file-merging.enabled", Since: v1_20, Ref: "FLIP-306 (1.20 release notes)"}}},
	{Field: "checkpointing.claim_mode", Type: tEnum, Enum: []string{"CLAIM", "NO_CLAIM", "LEGACY"}, Default: always("NO_CLAIM"), Names: []name{
		{Key: "execution.state-recovery.claim-mode", Since: v1_20, Ref: "StateRecoveryOptions, release-1.20"},
		{Key: "execution.savepoint-restore-mode", Since: v1_15, DeprecatedFrom: v1_20, Ref: "SavepointConfigOptions, release-1.15; deprecated in StateRecoveryOptions, release-1.20"}}},
	// The .type/.all suffixes (FLINK-29372, apache/flink pull request 20867,
	// merged 2022-09-21): 1.16.0 still reads only state.backend and
	// env.java.opts (StateBackendOptions, CoreOptions), the 1.18 sources read
	// state.backend.type, high-availability.type, restart-strategy.type and
	// env.java.opts.all with the old keys deprecated, so 1.17 is the first.
	{Field: "state_backend.type", Type: tString, Default: func(v Version) any {
		if v.AtLeast(v1_19) {
			return "hashmap"
		}
		return nil
	}, Names: []name{
		{Key: "state.backend.type", Since: v1_17, Ref: "FLINK-29372 (1.17 release notes)"},
		{Key: "state.backend", Since: v1_0, DeprecatedFrom: v1_17, Ref: "deprecated by FLINK-29372 (1.17)"}}},
	{Field: "state_backend.rocksdb_localdir", Type: tString, Names: []name{
		{Key: "state.backend.rocksdb.localdir", Since: v1_5, Ref: "RocksDBOptions, release-1.5"},
		{Key: "state.backend.rocksdb.checkpointdir", Since: v1_0, Until: v2_0, DeprecatedFrom: v1_5, Ref: "RocksDBOptions, release-1.5; removed in 2.0 (release notes, removed options)"}}},
	{Field: "ha.type", Type: tString, Default: always("NONE"), Names: []name{
		{Key: "high-availability.type", Since: v1_17, Ref: "FLINK-29372 (1.17 release notes)"},
		{Key: "high-availability", Since: v1_0, DeprecatedFrom: v1_17, Ref: "deprecated by FLINK-29372 (1.17)"},
		{Key: "recovery.mode", Since: v1_0, DeprecatedFrom: v1_0}}},
	{Field: "ha.storage_dir", Type: tString, Names: []name{
		{Key: "high-availability.storageDir", Since: v1_0},
		{Key: "high-availability.zookeeper.storageDir", Since: v1_0, DeprecatedFrom: v1_0},
		{Key: "recovery.zookeeper.storageDir", Since: v1_0, DeprecatedFrom: v1_0}}},
	{Field: "ha.cluster_id", Type: tString, Default: always("/default"), Names: []name{
		{Key: "high-availability.cluster-id", Since: v1_0}}},
	{Field: "parallelism.default", Type: tInt, Default: always(1), Names: []name{{Key: "parallelism.default", Since: v1_0}}},
	{Field: "parallelism.slots_per_taskmanager", Type: tInt, Default: always(1), Names: []name{{Key: "taskmanager.numberOfTaskSlots", Since: v1_0}}},
	{Field: "restart_strategy.type", Type: tString, Names: []name{
		{Key: "restart-strategy.type", Since: v1_17, Ref: "FLINK-29372 (1.17 release notes)"},
		{Key: "restart-strategy", Since: v1_0, DeprecatedFrom: v1_17, Ref: "deprecated by FLINK-29372 (1.17)"}}},
	{Field: "execution.target", Type: tString, Names: []name{{Key: "execution.target", Since: v1_10, Ref: "DeploymentOptions, release-1.10 (FLIP-73)"}}},
	// bin/config.sh reads env.hadoop.conf.dir (KEY_ENV_HADOOP_CONF_DIR)
	// from Flink 1.6.0 (FLINK-6222); the 1.4.2 config.sh has no such key,
	// and on 2018-07-23 (after 1.5.0) master did not have it yet
	// (apache/flink pull request 6388).
	{Field: "hadoop.conf_dir_option", Type: tString, Names: []name{{Key: "env.hadoop.conf.dir", Since: V(1, 6), Ref: "bin/config.sh KEY_ENV_HADOOP_CONF_DIR, release-1.6 (FLINK-6222)"}}},
	{Field: "hadoop.hadoopconf_option", Type: tString, Names: []name{
		{Key: "fs.hdfs.hadoopconf", Since: v1_0, Until: v2_0, DeprecatedFrom: v1_5, Ref: "deprecated by FLINK-7967 (1.5); removed by FLINK-34085 (2.0)"}}},
}

// renamedKeys lists the other renames of FLINK-29372 (1.17) that are not in
// flinkKeys, so the hygiene rules can name the replacement (FLINK-29372).
var renamedKeys = []name{
	{Key: "env.java.opts", DeprecatedFrom: v1_17},
	{Key: "metrics.scope.jm.job", DeprecatedFrom: v1_17},
	{Key: "metrics.scope.tm.job", DeprecatedFrom: v1_17},
	{Key: "cleanup-strategy", DeprecatedFrom: v1_17},
	{Key: "kubernetes.jobmanager.cpu", DeprecatedFrom: v1_17},
	{Key: "kubernetes.taskmanager.cpu", DeprecatedFrom: v1_17},
	{Key: "kubernetes.container.image", DeprecatedFrom: v1_17},
	{Key: "kubernetes.pod-template-file", DeprecatedFrom: v1_17},
	{Key: "fs.hdfs.hdfssite", DeprecatedFrom: v1_5, Until: v2_0},
	{Key: "fs.hdfs.hdfsdefault", DeprecatedFrom: v1_5, Until: v2_0},
	{Key: "state.backend.async", Until: v2_0},
}

var renamedTo = map[string]string{
	"env.java.opts":                "env.java.opts.all",
	"metrics.scope.jm.job":         "metrics.scope.jm-job",
	"metrics.scope.tm.job":         "metrics.scope.tm-job",
	"cleanup-strategy":             "cleanup-strategy.type",
	"kubernetes.jobmanager.cpu":    "kubernetes.jobmanager.cpu.amount",
	"kubernetes.taskmanager.cpu":   "kubernetes.taskmanager.cpu.amount",
	"kubernetes.container.image":   "kubernetes.container.image.ref",
	"kubernetes.pod-template-file": "kubernetes.pod-template-file.default",
	"fs.hdfs.hdfssite":             "env.hadoop.conf.dir",
	"fs.hdfs.hdfsdefault":          "env.hadoop.conf.dir",
	"fs.hdfs.hadoopconf":           "env.hadoop.conf.dir",
}

// renamedSince is the release that introduced each replacement name of
// renamedTo whose release is established: the FLINK-29372 suffixes came
// with Flink 1.17 (release notes:
// https://nightlies.apache.org/flink/flink-docs-release-1.17/release-notes/flink-1.17/).
var renamedSince = map[string]Version{
	"env.java.opts.all":                    v1_17,
	"metrics.scope.jm-job":                 v1_17,
	"metrics.scope.tm-job":                 v1_17,
	"cleanup-strategy.type":                v1_17,
	"kubernetes.jobmanager.cpu.amount":     v1_17,
	"kubernetes.taskmanager.cpu.amount":    v1_17,
	"kubernetes.container.image.ref":       v1_17,
	"kubernetes.pod-template-file.default": v1_17,
}

// KeySince is the first Flink release that reads key under that name, when
// the catalogue knows it (a zero Since, "read by every release the
// catalogue covers", is not reported).
func KeySince(key string) (Version, bool) {
	for _, kd := range flinkKeys {
		for _, n := range kd.Names {
			if n.Key == key && !n.Since.IsZero() && n.Since != v1_0 {
				return n.Since, true
			}
		}
	}
	v, ok := renamedSince[key]
	return v, ok
}
