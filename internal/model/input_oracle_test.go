package model

// The input document as ckptlint built it before Input built the OPA value
// directly: Go maps converted by ast.InterfaceToValue. It is the oracle
// TestInputMatchesMaps (input_equal_test.go) holds Input to.

import (
	"cmp"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// InputMaps is the input document of s the old way, for the external tests.
func InputMaps(s *Set) (ast.Value, error) { return ast.InterfaceToValue(oldInput(s)) }

func oldInput(s *Set) map[string]any {
	in := map[string]any{
		"ckptlint": map[string]any{"schema": SchemaVersion},
		"set":      map[string]any{"name": s.Name},
		"versions": map[string]any{
			"flink":  oldVersionInput(s.FlinkVersion, "Flink"),
			"hadoop": oldVersionInput(s.HadoopVersion, "Hadoop"),
		},
	}
	flinkVals, uses := flinkEffective(s.Flink, s.FlinkOverlay, s.FlinkVersion.ReadAs())
	eff := map[string]any{}
	put := func(field string, v *Value) {
		sec, name, _ := strings.Cut(field, ".")
		m, ok := eff[sec].(map[string]any)
		if !ok {
			m = map[string]any{}
			eff[sec] = m
		}
		m[name] = oldValueInput(v)
	}
	if s.Flink != nil {
		for f, v := range flinkVals {
			put(f, v)
		}
		in["flink"] = oldFlinkInput(s, uses)
	}
	for f, v := range hadoopEffective(s) {
		put(f, v)
	}
	in["effective"] = eff
	if d := oldDerivedInput(s, flinkVals); d != nil {
		in["derived"] = d
	}
	in["hadoop"] = oldHadoopInput(s)
	in["cluster"] = oldClusterInput(s.Cluster, s.Facts)
	in["deployment"] = oldDeploymentInput(s.Deployment, s.Cluster, s.Facts)
	if s.Deployed != nil {
		in["deployed"] = s.Deployed.toInput()
	}
	in["facts"] = oldFactsClockInput(s.Facts)
	return in
}

func oldKeysInput(f *parsed.File, withFinal bool) map[string]any {
	keys := map[string]any{}
	for k, e := range f.Effective() {
		m := map[string]any{"value": e.Value, "kind": string(e.Kind), "loc": oldLocInput(entryLoc(e))}
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

func oldNoticesInput(f *parsed.File) []any {
	out := []any{}
	for _, n := range f.Notices {
		out = append(out, oldNoticeInput(n))
	}
	return out
}

func oldNoticeInput(n parsed.Notice) map[string]any {
	return map[string]any{
		"code": n.Code, "message": n.Message, "key": n.Key,
		"loc": oldLocInput(LocOf(n.File, n.Span)),
	}
}

func oldFileInput(f *parsed.File, withFinal bool) map[string]any {
	m := map[string]any{
		"file":    f.Path,
		"format":  string(f.Format),
		"keys":    oldKeysInput(f, withFinal),
		"notices": oldNoticesInput(f),
		"nested":  f.Nested,
	}
	if f.Err != nil {
		m["error"] = map[string]any{"message": f.Err.Msg, "loc": oldLocInput(LocOf(f.Err.File, f.Err.Span()))}
	}
	return m
}

func oldFlinkInput(s *Set, uses []keyUse) map[string]any {
	m := oldFileInput(s.Flink, false)
	ku := []any{}
	for _, u := range uses {
		ku = append(ku, map[string]any{"key": u.Key, "problem": u.Problem, "message": u.Message, "use": u.Use, "loc": oldLocInput(u.Loc)})
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
	m["unknown_keys"] = oldUnknownKeysInput(s.Flink, s.FlinkVersion)
	if s.FlinkIgnored != nil {
		m["ignored_file"] = map[string]any{"file": s.FlinkIgnored.Path, "format": string(s.FlinkIgnored.Format),
			"loc": oldLocInput(LocOf(s.FlinkIgnored.Path, parsed.At(parsed.Top())))}
	}
	pt := map[string]any{}
	for k, e := range hadoopPassthrough(s.Flink) {
		pt[k] = map[string]any{"value": e.Value, "key": e.Key, "loc": oldLocInput(entryLoc(e))}
	}
	m["hadoop_passthrough"] = pt
	if s.Manifest != nil {
		mf := map[string]any{"name": s.Manifest.Name, "namespace": s.Manifest.Namespace,
			"flink_version": s.Manifest.FlinkVersion, "mode": s.Manifest.Mode}
		for k, f := range map[string]*Field{"job_parallelism": s.Manifest.JobParallelism,
			"taskmanager_replicas": s.Manifest.TaskManagerReplicas, "upgrade_mode": s.Manifest.UpgradeMode} {
			if f != nil {
				mf[k] = map[string]any{"value": f.Value, "loc": oldLocInput(f.Loc)}
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
					"access_modes": modes, "template": mt.Template, "loc": oldLocInput(mt.Loc)})
			}
			mounts[comp] = list
		}
		mf["mounts"] = mounts
		m["manifest"] = mf
	}
	return m
}

func oldHadoopInput(s *Set) map[string]any {
	client := []any{}
	var files []*parsed.File
	for _, r := range s.Client {
		files = append(files, r.File)
	}
	cross := crossFinalNotices(files)
	for _, r := range s.Client {
		fm := oldFileInput(r.File, true)
		for _, n := range cross[r.File] {
			fm["notices"] = append(fm["notices"].([]any), oldNoticeInput(n))
		}
		fm["via"], fm["dir"] = r.Via, r.Dir
		client = append(client, fm)
	}
	refs := []any{}
	for _, r := range s.HadoopConfRefs {
		refs = append(refs, map[string]any{"key": r.Key, "value": r.Value, "resolved": r.Resolved, "reason": r.Reason, "loc": oldLocInput(r.Loc)})
	}
	m := map[string]any{"client": client, "conf_refs": refs}
	if s.ClusterHDFS != nil {
		m["cluster_hdfs_site"] = oldFileInput(s.ClusterHDFS, true)
	}
	return m
}

func oldClusterInput(c *config.Cluster, clock FactsClock) map[string]any {
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
	oldFactsInput(m, c.Facts, clock)
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
func oldDeploymentInput(d *config.Deployment, cl *config.Cluster, clock FactsClock) map[string]any {
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
				facts[a.attr] = oldFactInput(*a.f, clock)
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
		m["running_checkpointing"] = oldRunningInput(d.Running, clock)
	}
	oldFactsInput(m, d.Facts, clock)
	sized(m["facts"].(map[string]any))
	return m
}

func oldVersionInput(r Resolved, product string) map[string]any {
	m := map[string]any{
		"source":   r.Source,
		"declared": r.Known(),
		"known":    r.Known(),
		"why":      r.Why,
		"where":    r.Where,
		"text":     r.Text(product),
	}
	if product == "Flink" {
		// Whether the key tables cover the version (docs/versions.md).
		m["covered"] = r.Covered()
		m["outside"] = r.Outside()
		m["coverage"] = r.Coverage(product)
		m["table"] = KeyTableRange()
	}
	if product == "Hadoop" {
		// Whether the Hadoop key table (its defaults) covers the version.
		m["covered"] = hadoopCovered(r)
		m["table"] = HadoopTableFirst.String() + " to " + HadoopTableLast.String()
	}
	if !r.Version.IsZero() {
		m["value"] = cmp.Or(r.Raw, r.Version.String())
		m["major"], m["minor"], m["patch"] = r.Version.Major, r.Version.Minor, r.Version.Patch
	}
	ev := make([]any, 0, len(r.Evidence))
	for _, e := range r.Evidence {
		ev = append(ev, oldEvidenceInput(e))
	}
	m["evidence"] = ev
	if len(r.Conflicts) > 0 {
		cs := make([]any, 0, len(r.Conflicts))
		for _, e := range r.Conflicts {
			cs = append(cs, oldEvidenceInput(e))
		}
		m["conflicts"] = cs
	}
	if len(r.Skipped) > 0 {
		m["skipped"] = r.Skipped
	}
	return m
}

func oldEvidenceInput(e Evidence) map[string]any {
	return map[string]any{"version": e.Version, "source": e.Source, "what": e.What, "file": e.File, "line": e.Line, "place": e.Place()}
}

func oldFactsClockInput(c FactsClock) map[string]any {
	maxAge := c.MaxAge
	if maxAge <= 0 {
		maxAge = config.DefaultFactsMaxAge
	}
	m := map[string]any{"max_age_ms": maxAge.Milliseconds(), "max_age": durationText(maxAge)}
	if !c.Now.IsZero() {
		// The day, not the instant: a result from the cache (keyed by
		// FactsState) and a fresh one agree.
		m["today"] = c.Now.UTC().Format(time.DateOnly)
	}
	if c.ConfigFile != "" {
		m["config_file"] = c.ConfigFile
	}
	return m
}

func oldFactsInput(m map[string]any, facts []config.Facts, c FactsClock) {
	blocks := []any{}
	byAttr := map[string]any{}
	for _, f := range facts {
		fm := oldFactInput(f, c)
		blocks = append(blocks, fm)
		for _, a := range f.Attributes {
			byAttr[a] = fm // the last block that lists a wins (config.FactsFor)
		}
	}
	m["fact_blocks"] = blocks
	m["facts"] = byAttr
}

func oldFactInput(f config.Facts, c FactsClock) map[string]any {
	attrs := []any{}
	for _, a := range f.Attributes {
		attrs = append(attrs, a)
	}
	date := f.ObservedAt.Format(time.DateOnly)
	m := map[string]any{
		"kind":        f.Kind,
		"source":      f.Source,
		"observed_at": f.ObservedAt.Format(time.RFC3339),
		"date":        date,
		"attributes":  attrs,
		"cite":        fmt.Sprintf("facts from %s %s, %s", f.Kind, f.Source, date),
	}
	if c.ConfigFile != "" && f.DefRange.Start.Line > 0 {
		m["at"] = fmt.Sprintf("%s:%d", c.ConfigFile, f.DefRange.Start.Line)
	}
	if !c.Now.IsZero() {
		maxAge := c.MaxAge
		if maxAge <= 0 {
			maxAge = config.DefaultFactsMaxAge
		}
		age := c.Now.Sub(f.ObservedAt)
		m["age_ms"] = age.Milliseconds()
		m["age"] = ageText(age)
		m["stale"] = age > maxAge
	}
	return m
}

func oldRunningInput(r *config.RunningCheckpointing, c FactsClock) map[string]any {
	m := map[string]any{}
	if r.JobID != "" {
		m["job_id"] = r.JobID
	}
	for k, d := range map[string]*time.Duration{"interval_ms": r.Interval, "timeout_ms": r.Timeout, "min_pause_ms": r.MinPause} {
		if d != nil {
			m[k] = d.Milliseconds()
		}
	}
	for k, n := range map[string]*int{"max_concurrent": r.MaxConcurrent, "tolerable_failures": r.TolerableFailures} {
		if n != nil {
			m[k] = *n
		}
	}
	if r.Unaligned != nil {
		m["unaligned"] = *r.Unaligned
	}
	if c.ConfigFile != "" && r.DefRange.Start.Line > 0 {
		m["at"] = fmt.Sprintf("%s:%d", c.ConfigFile, r.DefRange.Start.Line)
	}
	return m
}

func oldDerivedInput(s *Set, flinkVals map[string]*Value) map[string]any {
	if s.Flink == nil {
		return nil
	}
	d := map[string]any{}
	iv := flinkVals["checkpointing.interval"]
	// checkpointing: an interval is set and positive (Flink 1.20
	// CheckpointingOptions: no default, off unless set).
	d["checkpointing"] = iv != nil && iv.isSet() && positive(iv.Value)
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
	d["checkpoints_on_hdfs"] = onHDFS
	// effective_interval: max(interval, min-pause) when both are readable
	// (Flink 1.20 CheckpointCoordinator.java L316-329), else the interval's value.
	if iv != nil {
		d["effective_interval"] = iv.Value
		if mp := flinkVals["checkpointing.min_pause"]; mp != nil && iv.readable() && mp.readable() {
			d["effective_interval"] = max(iv.Value.(int64), mp.Value.(int64))
		}
	}
	return d
}

func oldUnknownKeysInput(f *parsed.File, v Resolved) []any {
	idx := -1
	if v.Known() { // a lower bound is no exact release (docs/versions.md)
		idx = releaseIndex(v.Version)
	}
	rels, table := optionReleases(), optionKeys()
	first, last := rels[0], rels[len(rels)-1]
	tableText := fmt.Sprintf("Flink %s to %s", first, last)
	out := []any{}
	eff := f.Effective()
	keys := make([]string, 0, len(eff))
	for k := range eff {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !checkedKey(k) {
			continue
		}
		mask := table[k]
		if idx >= 0 && mask&(1<<idx) != 0 || idx < 0 && mask != 0 {
			continue
		}
		knownIn, ranges := releaseRuns(rels, mask)
		listText := tableText
		if idx >= 0 {
			listText = "Flink " + rels[idx].String()
		}
		m := map[string]any{
			"key": k, "loc": oldLocInput(entryLoc(eff[k])), "known_in": knownIn, "known_ranges": ranges,
			"checked_against": listText, "table": tableText, "exact": idx >= 0,
		}
		if s := nearestKey(k, idx); s != "" {
			m["suggestion"] = s
		}
		out = append(out, m)
	}
	return out
}

func oldValueInput(v *Value) ast.Value {
	val, err := ast.InterfaceToValue(v.Value)
	if err != nil { // Value holds only int64, int, bool, string or nil
		val = ast.NullValue
	}
	kv := make([][2]*ast.Term, 0, 8)
	kv = append(kv,
		ast.Item(ast.InternedTerm("value"), ast.NewTerm(val)),
		ast.Item(ast.InternedTerm("set"), ast.InternedTerm(v.Source != "default" && v.Source != "unset")),
		ast.Item(ast.InternedTerm("source"), ast.InternedTerm(v.Source)),
	)
	str := func(k, s string) {
		if s != "" {
			kv = append(kv, ast.Item(ast.InternedTerm(k), ast.StringTerm(s)))
		}
	}
	flag := func(k string, b bool) {
		if b {
			kv = append(kv, ast.Item(ast.InternedTerm(k), ast.InternedTerm(true)))
		}
	}
	str("display", v.Display)
	str("raw", v.Raw)
	str("key", v.Key)
	str("file", v.File)
	str("via", v.Chain)
	if v.Loc != nil {
		kv = append(kv, ast.Item(ast.InternedTerm("loc"), ast.NewTerm(oldLocInput(v.Loc))))
	}
	str("error", v.Error)
	flag("deprecated", v.Deprecated)
	flag("final", v.Final)
	flag("template", v.Template)
	str("unknown", v.Unknown)
	str("varies", v.Varies)
	flag("lenient", v.Lenient)
	return ast.NewObject(kv...)
}

func oldLocInput(l *Loc) ast.Value {
	if l == nil {
		return ast.NewObject()
	}
	return ast.NewObject(
		ast.Item(locKeys[0], ast.StringTerm(l.File)),
		ast.Item(locKeys[1], ast.InternedTerm(l.Span.Start.Line)),
		ast.Item(locKeys[2], ast.InternedTerm(l.Span.Start.Col)),
		ast.Item(locKeys[3], ast.InternedTerm(l.Span.Start.Offset)),
		ast.Item(locKeys[4], ast.InternedTerm(l.Span.End.Line)),
		ast.Item(locKeys[5], ast.InternedTerm(l.Span.End.Col)),
		ast.Item(locKeys[6], ast.InternedTerm(l.Span.End.Offset)),
	)
}
