package model

import "strings"

// derivedInput is input.derived: facts many rules share that the policy
// library used to recompute on every evaluation (policies/lib/flink.rego,
// policies/lib/timing.rego). The library reads them when present and keeps
// its own derivation for hand-written test inputs without them; the lint
// package's TestDerivedFactsAgree checks both give the same findings on
// every fixture. Absent for a set without a Flink file.
func derivedInput(s *Set, flinkVals map[string]*Value) object {
	if s.Flink == nil {
		return nil
	}
	d := newObject(3)
	iv := flinkVals["checkpointing.interval"]
	// checkpointing: an interval is set and positive (Flink 1.20
	// CheckpointingOptions: no default, off unless set).
	d.flag("checkpointing", iv != nil && iv.isSet() && positive(iv.Value))
	// checkpoints_on_hdfs: an hdfs: checkpoint directory, or one without a
	// colon while fs.default-scheme is hdfs: (FileSystem.getUnguardedFileSystem).
	onHDFS := false
	if dir := flinkVals["checkpointing.dir"]; dir != nil && dir.isSet() {
		if p, ok := dir.Value.(string); ok {
			onHDFS = strings.HasPrefix(strings.ToLower(p), "hdfs:")
			if !onHDFS && !strings.Contains(p, ":") {
				if e := s.Flink.Effective()["fs.default-scheme"]; e != nil {
					onHDFS = strings.HasPrefix(strings.ToLower(e.Value), "hdfs:")
				}
			}
		}
	}
	d.flag("checkpoints_on_hdfs", onHDFS)
	// effective_interval: max(interval, min-pause) when both are readable
	// (Flink 1.20 CheckpointCoordinator.java L316-329), else the interval's value.
	if iv != nil {
		if mp := flinkVals["checkpointing.min_pause"]; mp != nil && iv.readable() && mp.readable() {
			d.num64("effective_interval", max(iv.Value.(int64), mp.Value.(int64)))
		} else {
			d.val("effective_interval", iv.Value)
		}
	}
	return d
}

// isSet is the `set` field of the value's input object.
func (v *Value) isSet() bool { return v.Source != "default" && v.Source != "unset" }

// readable is policies/lib/timing.rego's readable: a duration that parsed.
func (v *Value) readable() bool {
	_, ok := v.Value.(int64)
	return ok && v.Error == ""
}

func positive(x any) bool {
	switch n := x.(type) {
	case int64:
		return n > 0
	case int:
		return n > 0
	}
	return false
}
