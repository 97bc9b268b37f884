package model

import "slices"

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
	// JIRA issue, the ConfigConstants or ConfigOptions class of the release
	// that made the change (docs/versions.md lists them). A Since of
	// KeyTableFirst means "0.9 or earlier": the catalogue starts there.
	Ref string
}

// keyDef describes one effective Flink setting: where it lands in
// input.effective, the spellings Flink tries in order (exact key, then
// fallback and deprecated keys: Flink 1.20 Configuration.applyWithOption
// and ConfigOption.java L149-157), its type and its default.
type keyDef struct {
	Field string // "<section>.<name>" in input.effective
	Names []name
	// Orders is Flink's lookup order from a release on, when it differs
	// from the order of Names (nil: Names is the order of every release).
	Orders  []keyOrder
	Type    valueType
	Enum    []string
	Default func(v Version) any // nil: no default (unset)
}

// keyOrder is the order in which Flink tries the spellings of a setting
// from release From on (until the next keyOrder).
type keyOrder struct {
	From Version
	Keys []string
}

// names is kd.Names in the order Flink version v tries them.
func (kd keyDef) names(v Version) []name {
	var order []string
	for _, o := range kd.Orders {
		if v.AtLeast(o.From) {
			order = o.Keys
		}
	}
	if order == nil {
		return kd.Names
	}
	out := make([]name, 0, len(kd.Names))
	for _, k := range order {
		for _, n := range kd.Names {
			if n.Key == k {
				out = append(out, n)
			}
		}
	}
	for _, n := range kd.Names {
		if !slices.Contains(order, n.Key) {
			out = append(out, n)
		}
	}
	return out
}

func always(x any) func(Version) any { return func(Version) any { return x } }

var (
	v0_9  = V(0, 9)
	v0_10 = V(0, 10)
	v1_0  = V(1, 0)
	v1_2  = V(1, 2)
	v1_3  = V(1, 3)
	v1_5  = V(1, 5)
	v1_10 = V(1, 10)
	v1_11 = V(1, 11)
	v1_12 = V(1, 12)
	v1_13 = V(1, 13)
	v1_15 = V(1, 15)
	v1_17 = V(1, 17)
	v1_19 = V(1, 19)
	v1_20 = V(1, 20)
	v2_0  = V(2, 0)
)

// KeyTableFirst is the oldest release the key catalogue (flinkKeys,
// renamedKeys) and the option table (flinkoptions_legacy_gen.go) cover:
// Flink 0.9.0, the first release with checkpoint state configuration. Its
// ConfigConstants.java has STATE_BACKEND "state.backend" and
// STATE_BACKEND_FS_DIR "state.backend.fs.checkpointdir" (apache/flink
// commit 14799738858, "[streaming] State backend configurable from
// flink-conf.yaml", tag release-0.9.0) and DEFAULT_PARALLELISM_KEY
// "parallelism.default" (FLINK-1679); 0.8.1's has no state backend key and
// names the parallelism parallelization.degree.default. Releases are
// compared by major.minor: 0.9.1 is covered, 0.8.1 is older.
var KeyTableFirst = v0_9

// KeyTableLast is the newest release the tables cover: the last release of
// the generated option table (flinkoptions_gen.go, read from the release
// branches listed there).
func KeyTableLast() Version { r := optionReleases(); return r[len(r)-1] }

const minute = 60 * 1000

// flinkKeys is the catalogue of checkpoint and state keys from Flink 0.9
// (KeyTableFirst) on; each name cites its upstream source in Ref. Order of
// Names is Flink's lookup order for a version that reads several of them
// (Orders where a release changed it).
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
		// FLINK-19680 added it after 1.11: the release-1.11.6 sources have no such key.
		{Key: "execution.checkpointing.alignment-timeout", Since: v1_12, DeprecatedFrom: v1_13, Ref: "FLINK-19680: ExecutionCheckpointingOptions, release-1.12; deprecated in release-1.13"}}},
	{Field: "checkpointing.externalized_retention", Type: tEnum,
		Enum:    []string{"DELETE_ON_CANCELLATION", "RETAIN_ON_CANCELLATION", "NO_EXTERNALIZED_CHECKPOINTS"},
		Default: always("NO_EXTERNALIZED_CHECKPOINTS"),
		Names:   []name{{Key: "execution.checkpointing.externalized-checkpoint-retention", Since: v1_10, Ref: "FLINK-14788: ExecutionCheckpointingOptions (1.10)"}}},
	{Field: "checkpointing.storage", Type: tString, Names: []name{
		{Key: "execution.checkpointing.storage", Since: v1_20, Ref: "FLINK-34482 (1.20 release notes)"},
		{Key: "state.checkpoint-storage", Since: v1_13, DeprecatedFrom: v1_20, Ref: "FLINK-19465 (1.13); deprecated by FLINK-34482 (1.20)"}}},
	{Field: "checkpointing.dir", Type: tString, Names: []name{
		{Key: "execution.checkpointing.dir", Since: v1_20, Ref: "FLINK-34482 (1.20 release notes)"},
		// state.checkpoints.dir came with 1.2 (FLINK-4512,
		// ConfigConstants.CHECKPOINTS_DIRECTORY_KEY) as the directory of
		// externalized checkpoints' metadata only (otherMeanings); from 1.5 it
		// is the filesystem backend's checkpoint directory, with
		// state.backend.fs.checkpointdir as its deprecated key
		// (CheckpointingOptions.CHECKPOINTS_DIRECTORY, FLINK-7925). Up to 1.4
		// the backend reads only state.backend.fs.checkpointdir (0.9:
		// ConfigConstants.STATE_BACKEND_FS_DIR; 0.10 to 1.4:
		// FsStateBackendFactory.CHECKPOINT_DIRECTORY_URI_CONF_KEY), so
		// neither key shadows the other there.
		{Key: "state.checkpoints.dir", Since: v1_5, DeprecatedFrom: v1_20, Ref: "FLINK-7925: CheckpointingOptions.CHECKPOINTS_DIRECTORY, release-1.5 (1.2 to 1.4: externalized checkpoint metadata only, FLINK-4512); deprecated by FLINK-34482 (1.20)"},
		{Key: "state.backend.fs.checkpointdir", Since: v0_9, DeprecatedFrom: v1_5, Ref: "ConfigConstants.STATE_BACKEND_FS_DIR, release-0.9.0; FsStateBackendFactory, 0.10 to 1.4; deprecated key of state.checkpoints.dir from 1.5 (FLINK-7925)"}}},
	{Field: "checkpointing.savepoint_dir", Type: tString, Names: []name{
		{Key: "execution.checkpointing.savepoint-dir", Since: v1_20, Ref: "FLINK-34482 (1.20 release notes)"},
		{Key: "state.savepoints.dir", Since: v1_2, DeprecatedFrom: v1_20, Ref: "FLINK-4512: ConfigConstants.SAVEPOINT_DIRECTORY_KEY, release-1.2; deprecated by FLINK-34482 (1.20)"},
		// 1.2's JobManager reads it as a deprecated key of state.savepoints.dir
		// (ConfigurationUtil.getStringWithDeprecatedKeys), 1.4 on through
		// CoreOptions/CheckpointingOptions.SAVEPOINT_DIRECTORY.withDeprecatedKeys.
		{Key: "savepoints.state.backend.fs.dir", Since: v1_0, DeprecatedFrom: v1_2, Ref: "FLINK-2976: SavepointStoreFactory.SAVEPOINT_DIRECTORY_KEY, release-1.0; deprecated key of state.savepoints.dir from 1.2"}}},
	{Field: "checkpointing.num_retained", Type: tInt, Default: always(1), Names: []name{
		{Key: "execution.checkpointing.num-retained", Since: v1_20, Ref: "FLINK-34482 (1.20 release notes)"},
		{Key: "state.checkpoints.num-retained", Since: v1_3, DeprecatedFrom: v1_20, Ref: "FLINK-4754: CoreOptions.MAX_RETAINED_CHECKPOINTS, release-1.3; deprecated by FLINK-34482 (1.20)"}}},
	{Field: "checkpointing.incremental", Type: tBool, Default: always(false), Names: []name{
		{Key: "execution.checkpointing.incremental", Since: v1_20, Ref: "FLINK-34482 (1.20 release notes)"},
		{Key: "state.backend.incremental", Since: v1_5, DeprecatedFrom: v1_20, Ref: "FLINK-7925 (1.5); deprecated by FLINK-34482 (1.20)"}}},
	// The default was 1024 bytes (FsStateBackend.DEFAULT_FILE_STATE_THRESHOLD,
	// 1.0 to 1.4; CheckpointingOptions.FS_SMALL_FILE_THRESHOLD to 1.10) and
	// is 20 KiB from 1.11 (FLINK-17865).
	{Field: "checkpointing.data_inline_threshold", Type: tMemory, Default: func(v Version) any {
		if v.Less(v1_11) {
			return int64(1024)
		}
		return int64(20 * 1024)
	}, Names: []name{
		{Key: "execution.checkpointing.data-inline-threshold", Since: v1_20, Ref: "FLINK-34482 (1.20 release notes)"},
		{Key: "state.storage.fs.memory-threshold", Since: v1_13, DeprecatedFrom: v1_20, Ref: "FLINK-19467 (1.13); deprecated by FLINK-34482 (1.20)"},
		{Key: "state.backend.fs.memory-threshold", Since: v1_0, DeprecatedFrom: v1_13, Ref: "FLINK-3084: FsStateBackendFactory.MEMORY_THRESHOLD_CONF_KEY, release-1.0; deprecated by FLINK-19467 (1.13)"}}},
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
		{Key: "state.backend", Since: v0_9, DeprecatedFrom: v1_17, Ref: "ConfigConstants.STATE_BACKEND, release-0.9.0; deprecated by FLINK-29372 (1.17)"}}},
	{Field: "state_backend.rocksdb_localdir", Type: tString, Names: []name{
		{Key: "state.backend.rocksdb.localdir", Since: v1_5, Ref: "RocksDBOptions, release-1.5"},
		{Key: "state.backend.rocksdb.checkpointdir", Since: v1_2, Until: v2_0, DeprecatedFrom: v1_5, Ref: "FLINK-4579: RocksDBStateBackendFactory, release-1.2; deprecated in RocksDBOptions, release-1.5; removed in 2.0 (release notes, removed options)"}}},
	// FLINK-4253 (1.2) renamed recovery.mode to high-availability, keeping
	// the old key as its deprecated key (HighAvailabilityOptions.HA_MODE,
	// release-1.2.0); 1.17 lists the deprecated keys as
	// withDeprecatedKeys("recovery.mode", "high-availability"), and
	// ConfigOption.withDeprecatedKeys keeps that order, so from 1.17
	// recovery.mode is read before high-availability.
	{Field: "ha.type", Type: tString, Default: always("NONE"), Names: []name{
		{Key: "high-availability.type", Since: v1_17, Ref: "FLINK-29372 (1.17 release notes)"},
		{Key: "high-availability", Since: v1_2, DeprecatedFrom: v1_17, Ref: "FLINK-4253: HighAvailabilityOptions.HA_MODE, release-1.2; deprecated by FLINK-29372 (1.17)"},
		{Key: "recovery.mode", Since: v0_10, DeprecatedFrom: v1_2, Ref: "FLINK-2291: ConfigConstants.RECOVERY_MODE, release-0.10.0; deprecated key of high-availability from 1.2 (FLINK-4253)"}},
		Orders: []keyOrder{{From: v1_17, Keys: []string{"high-availability.type", "recovery.mode", "high-availability"}}}},
	// HighAvailabilityOptions.HA_STORAGE_PATH (FLINK-4768, release-1.2.0):
	// key("high-availability.storageDir").withDeprecatedKeys(
	// "high-availability.zookeeper.storageDir", "recovery.zookeeper.storageDir").
	{Field: "ha.storage_dir", Type: tString, Names: []name{
		{Key: "high-availability.storageDir", Since: v1_2, Ref: "FLINK-4768: HighAvailabilityOptions.HA_STORAGE_PATH, release-1.2"},
		{Key: "high-availability.zookeeper.storageDir", Since: v1_2, DeprecatedFrom: v1_2, Ref: "FLINK-4253 (1.2); a deprecated key of high-availability.storageDir from its first release (FLINK-4768)"},
		{Key: "recovery.zookeeper.storageDir", Since: v0_10, DeprecatedFrom: v1_2, Ref: "FLINK-2893: ConfigConstants.ZOOKEEPER_RECOVERY_PATH, release-0.10.0; deprecated key of high-availability.storageDir from 1.2"}}},
	{Field: "ha.cluster_id", Type: tString, Default: always("/default"), Names: []name{
		{Key: "high-availability.cluster-id", Since: v1_2, Ref: "FLINK-4768: HighAvailabilityOptions.HA_CLUSTER_ID, release-1.2"}}},
	{Field: "parallelism.default", Type: tInt, Default: always(1), Names: []name{{Key: "parallelism.default", Since: v0_9, Ref: "FLINK-1679: ConfigConstants.DEFAULT_PARALLELISM_KEY, release-0.9.0"}}},
	{Field: "parallelism.slots_per_taskmanager", Type: tInt, Default: always(1), Names: []name{{Key: "taskmanager.numberOfTaskSlots", Since: v0_9, Ref: "ConfigConstants.TASK_MANAGER_NUM_TASK_SLOTS (0.6 on; release-0.9.0)"}}},
	{Field: "restart_strategy.type", Type: tString, Names: []name{
		{Key: "restart-strategy.type", Since: v1_17, Ref: "FLINK-29372 (1.17 release notes)"},
		{Key: "restart-strategy", Since: v1_0, DeprecatedFrom: v1_17, Ref: "FLINK-3187: ConfigConstants.RESTART_STRATEGY, release-1.0; deprecated by FLINK-29372 (1.17)"}}},
	{Field: "execution.target", Type: tString, Names: []name{{Key: "execution.target", Since: v1_10, Ref: "DeploymentOptions, release-1.10 (FLIP-73)"}}},
	// bin/config.sh reads env.hadoop.conf.dir (KEY_ENV_HADOOP_CONF_DIR)
	// from Flink 1.6.0 (FLINK-6222); the 1.4.2 config.sh has no such key,
	// and on 2018-07-23 (after 1.5.0) master did not have it yet
	// (apache/flink pull request 6388).
	{Field: "hadoop.conf_dir_option", Type: tString, Names: []name{{Key: "env.hadoop.conf.dir", Since: V(1, 6), Ref: "bin/config.sh KEY_ENV_HADOOP_CONF_DIR, release-1.6 (FLINK-6222)"}}},
	{Field: "hadoop.hadoopconf_option", Type: tString, Names: []name{
		{Key: "fs.hdfs.hadoopconf", Since: v0_9, Until: v2_0, DeprecatedFrom: v1_5, Ref: "ConfigConstants.PATH_HADOOP_CONFIG, release-0.9.0; deprecated by FLINK-7967 (1.5); removed by FLINK-34085 (2.0)"}}},
}

// otherMeanings are keys a release reads as another setting than the
// catalogue entry that holds the key: read, so never reported as unread,
// but no spelling of that entry on those releases.
var otherMeanings = []name{
	// 1.2 to 1.4: the directory of externalized checkpoints' metadata
	// (FLINK-4512, ConfigConstants.CHECKPOINTS_DIRECTORY_KEY; 1.4
	// CoreOptions.CHECKPOINTS_DIRECTORY), not the backend's checkpoint data.
	{Key: "state.checkpoints.dir", Since: v1_2, Until: v1_5, Ref: "FLINK-4512: ConfigConstants.CHECKPOINTS_DIRECTORY_KEY, release-1.2"},
}

// renamedKeys lists the other renamed or removed keys that are not in
// flinkKeys, so the hygiene rules can name the replacement: the other
// renames of FLINK-29372 (1.17) and the keys Flink 2.0 removed. Since is
// the first release that reads the old key (KeyTableFirst: 0.9 or earlier).
var renamedKeys = []name{
	{Key: "env.java.opts", Since: v0_9, DeprecatedFrom: v1_17, Ref: "ConfigConstants.FLINK_JVM_OPTIONS, release-0.9.0 (bin/config.sh KEY_ENV_JAVA_OPTS); FLINK-29372 (1.17 release notes)"},
	{Key: "metrics.scope.jm.job", Since: V(1, 1), DeprecatedFrom: v1_17, Ref: "FLINK-4116: ConfigConstants.METRICS_SCOPE_NAMING_JM_JOB, release-1.1; FLINK-29372 (1.17 release notes)"},
	{Key: "metrics.scope.tm.job", Since: V(1, 1), DeprecatedFrom: v1_17, Ref: "FLINK-4116: ConfigConstants.METRICS_SCOPE_NAMING_TM_JOB, release-1.1; FLINK-29372 (1.17 release notes)"},
	{Key: "cleanup-strategy", Since: v1_15, DeprecatedFrom: v1_17, Ref: "FLINK-26331: CleanupOptions, release-1.15; FLINK-29372 (1.17 release notes)"},
	{Key: "kubernetes.jobmanager.cpu", Since: v1_10, DeprecatedFrom: v1_17, Ref: "FLINK-10935: KubernetesConfigOptions, release-1.10; FLINK-29372 (1.17 release notes)"},
	{Key: "kubernetes.taskmanager.cpu", Since: v1_10, DeprecatedFrom: v1_17, Ref: "FLINK-10935: KubernetesConfigOptions, release-1.10; FLINK-29372 (1.17 release notes)"},
	{Key: "kubernetes.container.image", Since: v1_10, DeprecatedFrom: v1_17, Ref: "FLINK-10935: KubernetesConfigOptions, release-1.10; FLINK-29372 (1.17 release notes)"},
	{Key: "kubernetes.pod-template-file", Since: v1_13, DeprecatedFrom: v1_17, Ref: "FLINK-15656: KubernetesConfigOptions, release-1.13; FLINK-29372 (1.17 release notes)"},
	{Key: "fs.hdfs.hdfssite", Since: v0_9, DeprecatedFrom: v1_5, Until: v2_0, Ref: "ConfigConstants.HDFS_SITE_CONFIG, release-0.9.0; deprecated by FLINK-7967 (1.5); removed by FLINK-34085 (2.0)"},
	{Key: "fs.hdfs.hdfsdefault", Since: v0_9, DeprecatedFrom: v1_5, Until: v2_0, Ref: "ConfigConstants.HDFS_DEFAULT_CONFIG, release-0.9.0; deprecated by FLINK-7967 (1.5); removed by FLINK-34085 (2.0)"},
	{Key: "state.backend.async", Since: v1_5, Until: v2_0, Ref: "FLINK-7925: CheckpointingOptions.ASYNC_SNAPSHOTS, release-1.5; removed in 2.0 (release notes, removed options)"},
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
// the catalogue knows it (a Since of KeyTableFirst, "read by every release
// the catalogue covers", is not reported).
func KeySince(key string) (Version, bool) {
	for _, kd := range flinkKeys {
		for _, n := range kd.Names {
			if n.Key == key && !n.Since.IsZero() && n.Since != KeyTableFirst {
				return n.Since, true
			}
		}
	}
	v, ok := renamedSince[key]
	return v, ok
}

// FlinkReads reports whether Flink version v reads key, as far as ckptlint's
// tables say: a spelling of the key catalogue (flinkKeys, renamedKeys,
// otherMeanings) that v reads, or a key of the option table's release v.
// known is false when neither table knows the key (nothing can be said),
// or when v is outside the releases the tables cover.
func FlinkReads(key string, v Version) (read, known bool) {
	inCatalogue := false
	for _, kd := range flinkKeys {
		for _, n := range kd.Names {
			inCatalogue = inCatalogue || n.Key == key
		}
	}
	for _, ns := range [][]name{renamedKeys, otherMeanings} {
		for _, n := range ns {
			inCatalogue = inCatalogue || n.Key == key
		}
	}
	if readByCatalogue(key, v) {
		return true, true
	}
	idx := releaseIndex(v)
	if idx < 0 {
		return false, false
	}
	mask, inTable := optionKeys()[key]
	if mask&(1<<idx) != 0 {
		return true, true
	}
	return false, inCatalogue || inTable
}

// SpellingFor is the spelling of key's setting that Flink version v reads:
// key itself when v reads it, else the catalogue entry's first name v reads
// ("state.backend" for state.backend.type on 1.16), or "" when v reads no
// spelling of it. catalogued is false for a key the catalogue does not hold.
func SpellingFor(key string, v Version) (spelling string, catalogued bool) {
	for _, kd := range flinkKeys {
		for _, n := range kd.Names {
			if n.Key != key {
				continue
			}
			if readsName(n, v) {
				return key, true
			}
			for _, m := range kd.names(v) {
				if readsName(m, v) {
					return m.Key, true
				}
			}
			return "", true
		}
	}
	return key, false
}
