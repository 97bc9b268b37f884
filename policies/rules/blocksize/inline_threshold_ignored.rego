# METADATA
# title: The data-inline threshold is above 1 MiB and Flink ignores it
# description: |
#   State chunks up to execution.checkpointing.data-inline-threshold (formerly
#   state.storage.fs.memory-threshold and state.backend.fs.memory-threshold) are stored
#   inline in the checkpoint's _metadata file instead of in a file of their own, which
#   is how Flink avoids a flood of tiny checkpoint files. The threshold may be at most
#   1 MiB: FileSystemCheckpointStorage silently replaces a larger value with the default
#   (20 KiB) and only logs WARN "Ignoring invalid file size threshold value (...): N -
#   using default value ... instead". A configuration that raises the threshold to cut
#   the number of small files therefore gets the opposite: every chunk above 20 KiB
#   becomes a file. Because Flink does something other than what is written, this is an
#   error. The fix sets the largest value Flink accepts, 1mb, which is the closest to
#   the value written; remove the key instead to keep the 20 KiB default on purpose.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-runtime/src/main/java/org/apache/flink/runtime/state/storage/FileSystemCheckpointStorage.java
#     description: MAX_FILE_STATE_THRESHOLD (1 MiB) and the fallback to the default with its WARN text
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/config/#execution-checkpointing-data-inline-threshold
#     description: the option, its default and its 1 MB maximum
# custom:
#   id: CKPT106
#   name: inline-threshold-above-maximum
#   severity: error
#   fixable: true
package ckptlint.rules.blocksize.inline_threshold_ignored

import data.ckptlint.lib.result

threshold := input.effective.checkpointing.data_inline_threshold

maximum := 1048576

at_least(major, _) if input.versions.flink.major > major

at_least(major, minor) if {
	input.versions.flink.major == major
	input.versions.flink.minor >= minor
}

# one_mib is 1 MiB as the release reads the option: MemorySize from 1.11
# (FLINK-17865), an int of bytes before.
one_mib := "1048576" if {
	input.versions.flink.declared
	not at_least(1, 11)
} else := "1mb"

# The key Flink names in its WARN: the option's current key on this version.
current_key := "execution.checkpointing.data-inline-threshold" if {
	at_least(1, 20)
} else := "state.storage.fs.memory-threshold" if {
	at_least(1, 13)
} else := "state.backend.fs.memory-threshold"

# The default was 1 KiB before FLINK-17865 (Flink 1.11: release-1.10.3
# CheckpointingOptions.FS_SMALL_FILE_THRESHOLD defaultValue(1024),
# release-1.11.0 "20kb").
fallback := "20 KiB" if {
	at_least(1, 11)
} else := "1 KiB" if {
	input.versions.flink.declared
} else := "20 KiB from Flink 1.11, 1 KiB before"

# Before 1.5 the FsStateBackend constructor refuses the value (release-1.4.2
# FsStateBackend: checkArgument "The threshold for file state size cannot be
# larger than 1048576"); the WARN and the fallback came with 1.5.
refused if {
	input.versions.flink.declared
	not at_least(1, 5)
}

deny contains f if {
	threshold.set
	not threshold.error
	threshold.value > maximum
	refused
	f := result.fix(
		threshold, result.msg(
			sprintf("%s %s is above the 1 MiB Flink accepts, so jobs with checkpointing fail to start.", [threshold.key, threshold.display]),
			sprintf(
				"%s %s (from %s:%d) is above the 1 MiB Flink accepts: the filesystem state backend of %s refuses it when it is created (IllegalArgumentException \"The threshold for file state size cannot be larger than 1048576\"), so jobs with checkpointing fail to start. Set %s to 1048576 (the largest value Flink accepts), or remove it to keep the default",
				[threshold.key, threshold.display, threshold.loc.file, threshold.loc.line, input.versions.flink.text, threshold.key],
			),
		),
		[result.set("flink", threshold.key, "1048576")],
	)
}

deny contains f if {
	threshold.set
	not threshold.error
	threshold.value > maximum
	not refused
	f := result.fix(
		threshold, result.msg(
			sprintf("%s %s is above the 1 MiB Flink accepts: Flink ignores it and writes every chunk over %s as a file.", [threshold.key, threshold.display, fallback]),
			sprintf(
				"%s %s (from %s:%d) is above the 1 MiB Flink accepts: Flink ignores it, logs WARN \"Ignoring invalid file size threshold value (%s): %d - using default value ... instead\" and inlines only state chunks up to its default (%s) into _metadata, so every larger chunk becomes a checkpoint file of its own. Set %s to %s (the largest value Flink accepts), or remove it to keep the default on purpose",
				[
					threshold.key, threshold.display, threshold.loc.file, threshold.loc.line,
					current_key, threshold.value, fallback, threshold.key, one_mib,
				],
			),
		),
		[result.set("flink", threshold.key, one_mib)],
	)
}
