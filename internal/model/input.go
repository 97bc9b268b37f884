package model

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// SchemaVersion is the version of the input document; bump it when a field
// changes meaning or disappears.
const SchemaVersion = 1

// Input builds the Rego input document of a config set as the OPA value the
// policies evaluate. The shape is documented in docs/input.md and printed by
// `ckptlint inspect` (ast.JSON of this value). The loc objects and effective
// values, most of the document, are built as OPA values directly; the rest
// is assembled as Go maps and converted once (ast.InterfaceToValue keeps a
// value that is already an ast.Value).
func Input(s *Set) (ast.Value, error) {
	return ast.InterfaceToValue(input(s))
}

func input(s *Set) map[string]any {
	in := map[string]any{
		"ckptlint": map[string]any{"schema": SchemaVersion},
		"set":      map[string]any{"name": s.Name},
		"versions": map[string]any{
			"flink":  s.FlinkVersion.toInput("Flink"),
			"hadoop": s.HadoopVersion.toInput("Hadoop"),
		},
	}
	flinkVals, uses := flinkEffective(s.Flink, s.FlinkVersion.ReadAs())
	eff := map[string]any{}
	put := func(field string, v *Value) {
		sec, name, _ := strings.Cut(field, ".")
		m, ok := eff[sec].(map[string]any)
		if !ok {
			m = map[string]any{}
			eff[sec] = m
		}
		m[name] = v.toInput()
	}
	if s.Flink != nil {
		for f, v := range flinkVals {
			put(f, v)
		}
		in["flink"] = flinkInput(s, uses)
	}
	for f, v := range hadoopEffective(s) {
		put(f, v)
	}
	in["effective"] = eff
	if d := derivedInput(s, flinkVals); d != nil {
		in["derived"] = d
	}
	in["hadoop"] = hadoopInput(s)
	in["cluster"] = clusterInput(s.Cluster, s.Facts)
	in["deployment"] = deploymentInput(s.Deployment, s.Cluster, s.Facts)
	in["facts"] = factsClockInput(s.Facts)
	return in
}

func keysInput(f *parsed.File, withFinal bool) map[string]any {
	keys := map[string]any{}
	for k, e := range f.Effective() {
		m := map[string]any{"value": e.Value, "kind": string(e.Kind), "loc": entryLoc(e).toInput()}
		if withFinal && e.Final {
			m["final"] = true
		}
		if e.WrittenKey != "" && e.WrittenKey != k && withFinal {
			m["written_key"] = e.WrittenKey
		}
		keys[k] = m
	}
	return keys
}

func noticesInput(f *parsed.File) []any {
	out := []any{}
	for _, n := range f.Notices {
		out = append(out, noticeInput(n))
	}
	return out
}

func noticeInput(n parsed.Notice) map[string]any {
	return map[string]any{
		"code": n.Code, "message": n.Message, "key": n.Key,
		"loc": LocOf(n.File, n.Span).toInput(),
	}
}

func fileInput(f *parsed.File, withFinal bool) map[string]any {
	m := map[string]any{
		"file":    f.Path,
		"format":  string(f.Format),
		"keys":    keysInput(f, withFinal),
		"notices": noticesInput(f),
		"nested":  f.Nested,
	}
	if f.Err != nil {
		m["error"] = map[string]any{"message": f.Err.Msg, "loc": LocOf(f.Err.File, f.Err.Span()).toInput()}
	}
	return m
}

func flinkInput(s *Set, uses []keyUse) map[string]any {
	m := fileInput(s.Flink, false)
	ku := []any{}
	for _, u := range uses {
		ku = append(ku, map[string]any{"key": u.Key, "problem": u.Problem, "message": u.Message, "use": u.Use, "loc": u.Loc.toInput()})
	}
	m["key_uses"] = ku
	since := map[string]any{}
	for _, u := range uses {
		if v, ok := KeySince(u.Use); ok {
			since[u.Use] = v.String()
		}
	}
	m["key_since"] = since
	// unread: every catalogued key the known release does not read, with
	// why ("Flink 1.9 does not read execution.checkpointing.interval (it
	// exists from Flink 1.10)"), so a rule never proposes writing one.
	unread := map[string]any{}
	if s.FlinkVersion.Known() {
		for k, msg := range unreadCatalogue(s.FlinkVersion.ReadAs()) {
			unread[k] = msg
		}
	}
	m["unread"] = unread
	m["unknown_keys"] = unknownKeysInput(s.Flink, s.FlinkVersion)
	if s.FlinkIgnored != nil {
		m["ignored_file"] = map[string]any{"file": s.FlinkIgnored.Path, "format": string(s.FlinkIgnored.Format),
			"loc": LocOf(s.FlinkIgnored.Path, parsed.At(parsed.Top())).toInput()}
	}
	pt := map[string]any{}
	for k, e := range hadoopPassthrough(s.Flink) {
		pt[k] = map[string]any{"value": e.Value, "key": e.Key, "loc": entryLoc(e).toInput()}
	}
	m["hadoop_passthrough"] = pt
	if s.Manifest != nil {
		mf := map[string]any{"name": s.Manifest.Name, "namespace": s.Manifest.Namespace,
			"flink_version": s.Manifest.FlinkVersion, "mode": s.Manifest.Mode}
		for k, f := range map[string]*Field{"job_parallelism": s.Manifest.JobParallelism,
			"taskmanager_replicas": s.Manifest.TaskManagerReplicas, "upgrade_mode": s.Manifest.UpgradeMode} {
			if f != nil {
				mf[k] = map[string]any{"value": f.Value, "loc": f.Loc.toInput()}
			}
		}
		mounts := map[string]any{}
		for comp, ms := range s.Manifest.Mounts {
			list := []any{}
			for _, mt := range ms {
				modes := []any{}
				for _, a := range mt.AccessModes {
					modes = append(modes, a)
				}
				list = append(list, map[string]any{"mount_path": mt.MountPath, "sub_path": mt.SubPath, "read_only": mt.ReadOnly,
					"volume": mt.Volume, "volume_type": mt.VolumeType, "detail": mt.Detail, "class": mt.Class,
					"access_modes": modes, "template": mt.Template, "loc": mt.Loc.toInput()})
			}
			mounts[comp] = list
		}
		mf["mounts"] = mounts
		m["manifest"] = mf
	}
	return m
}

func hadoopInput(s *Set) map[string]any {
	client := []any{}
	var files []*parsed.File
	for _, r := range s.Client {
		files = append(files, r.File)
	}
	cross := crossFinalNotices(files)
	for _, r := range s.Client {
		fm := fileInput(r.File, true)
		for _, n := range cross[r.File] {
			fm["notices"] = append(fm["notices"].([]any), noticeInput(n))
		}
		fm["via"], fm["dir"] = r.Via, r.Dir
		client = append(client, fm)
	}
	refs := []any{}
	for _, r := range s.HadoopConfRefs {
		refs = append(refs, map[string]any{"key": r.Key, "value": r.Value, "resolved": r.Resolved, "reason": r.Reason, "loc": r.Loc.toInput()})
	}
	m := map[string]any{"client": client, "conf_refs": refs}
	if s.ClusterHDFS != nil {
		m["cluster_hdfs_site"] = fileInput(s.ClusterHDFS, true)
	}
	return m
}

func clusterInput(c *config.Cluster, clock FactsClock) map[string]any {
	m := map[string]any{"declared": c != nil}
	if c == nil {
		return m
	}
	m["name"] = c.Name
	setInt := func(k string, p *int) {
		if p != nil {
			m[k] = *p
		}
	}
	setInt64 := func(k string, p *int64) {
		if p != nil {
			m[k] = *p
		}
	}
	setInt("datanodes", c.Datanodes)
	setInt64("datanode_free_bytes", c.DatanodeFreeBytes)
	setInt64("datanode_blocks", c.DatanodeBlocks)
	setInt("taskmanagers", c.TaskManagers)
	setInt("slots_per_taskmanager", c.SlotsPerTaskManager)
	setInt64("min_block_size", c.MinBlockSize)
	setInt("other_writers", c.OtherWriters)
	setInt64("datanode_blocks_scheduled", c.DatanodeBlocksScheduled)
	if c.DatanodeHadoopVersion != "" {
		m["datanode_hadoop_version"] = c.DatanodeHadoopVersion
	}
	factsInput(m, c.Facts, clock)
	if c.WriteStall != nil {
		m["write_stall_ms"] = c.WriteStall.Milliseconds()
	}
	if c.HadoopVersion != "" {
		m["hadoop_version"] = c.HadoopVersion
	}
	return m
}

// deploymentInput is input.deployment. Besides the deployment block's own
// attributes it carries the size of the set's Flink cluster (taskmanagers,
// slots_per_taskmanager), resolved by config.SizeOf: the deployment's, else
// the cluster block's (their old place), with the block each came from in
// *_in and, when observed, its facts block in facts[attr]. A set no
// deployment block names gets the cluster's (declared stays false).
func deploymentInput(d *config.Deployment, cl *config.Cluster, clock FactsClock) map[string]any {
	m := map[string]any{"declared": d != nil}
	size := config.SizeOf(d, cl)
	sized := func(facts map[string]any) {
		for _, a := range []struct {
			attr string
			v    *int
			in   string
			f    *config.Facts
		}{
			{"taskmanagers", size.TaskManagers, size.TaskManagersFrom, size.TaskManagersFacts},
			{"slots_per_taskmanager", size.SlotsPerTaskManager, size.SlotsPerTaskManagerFrom, size.SlotsFacts},
		} {
			if a.v == nil {
				continue
			}
			m[a.attr], m[a.attr+"_in"] = *a.v, a.in
			if a.f != nil && facts != nil {
				facts[a.attr] = factInput(*a.f, clock)
			}
		}
	}
	if d == nil {
		sized(nil)
		return m
	}
	m["name"] = d.Name
	for k, p := range map[string]*int{"jobs": d.Jobs, "stateful_operators": d.StatefulOperators, "parallelism": d.Parallelism} {
		if p != nil {
			m[k] = *p
		}
	}
	if d.CheckpointP99 != nil {
		m["checkpoint_p99_ms"] = d.CheckpointP99.Milliseconds()
	}
	for k, p := range map[string]*int64{"checkpoint_size": d.CheckpointSize, "checkpoint_failed": d.CheckpointFailed, "state_size": d.StateSize} {
		if p != nil {
			m[k] = *p
		}
	}
	if d.Running != nil {
		m["running_checkpointing"] = runningInput(d.Running, clock)
	}
	factsInput(m, d.Facts, clock)
	sized(m["facts"].(map[string]any))
	return m
}
