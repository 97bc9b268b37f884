package model

import (
	"slices"
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
// `ckptlint inspect` (ast.JSON of this value). Every object is built as an
// OPA value directly (object.go): building Go maps and converting them with
// ast.InterfaceToValue built the document twice. TestInputMatchesMaps
// holds it to the document the maps gave (input_oracle_test.go).
func Input(s *Set) (ast.Value, error) {
	return input(s).object(), nil
}

func input(s *Set) object {
	in := newObject(14)
	in.value("ckptlint", ast.NewObject(ast.Item(key("schema"), ast.InternedTerm(SchemaVersion))))
	in.value("set", ast.NewObject(ast.Item(key("name"), ast.StringTerm(s.Name))))
	in.value("versions", ast.NewObject(
		ast.Item(key("flink"), s.FlinkVersion.toInput("Flink").objectTerm()),
		ast.Item(key("hadoop"), s.HadoopVersion.toInput("Hadoop").objectTerm()),
	))
	flinkVals, uses := flinkEffective(s.Flink, s.FlinkOverlay, s.FlinkVersion.ReadAs())
	hadoopVals := hadoopEffective(s)
	lm := make(locs, 32)
	in.value("effective", effectiveInput(s.Flink != nil, flinkVals, hadoopVals, lm))
	if s.Flink != nil {
		in.value("flink", flinkInput(s, uses, lm).object())
	}
	if d := derivedInput(s, flinkVals); d != nil {
		in.value("derived", d.object())
	}
	in.value("hadoop", hadoopInput(s, lm).object())
	in.value("cluster", clusterInput(s.Cluster, s.Facts).object())
	in.value("deployment", deploymentInput(s.Deployment, s.Cluster, s.Facts).object())
	if s.Deployed != nil {
		in.value("deployed", s.Deployed.toInput())
	}
	in.value("facts", factsClockInput(s.Facts).object())
	return in
}

// effectiveInput is input.effective: "<section>.<name>" fields as
// sections of values, the Hadoop value winning a field both give (the
// map it was put in last).
func effectiveInput(withFlink bool, flinkVals, hadoopVals map[string]*Value, lm locs) ast.Value {
	// a few sections: found by a scan, each object grown in place
	type section struct {
		name string
		o    object
	}
	secs := make([]section, 0, 8)
	put := func(field string, v *Value) {
		sec, name, _ := strings.Cut(field, ".")
		i := slices.IndexFunc(secs, func(s section) bool { return s.name == sec })
		if i < 0 {
			i = len(secs)
			secs = append(secs, section{sec, newObject(16)})
		}
		secs[i].o.value(name, v.toInput(lm))
	}
	if withFlink {
		for f, v := range flinkVals {
			if _, dup := hadoopVals[f]; !dup {
				put(f, v)
			}
		}
	}
	for f, v := range hadoopVals {
		put(f, v)
	}
	eff := newObject(len(secs))
	for _, s := range secs {
		eff.value(s.name, s.o.object())
	}
	return eff.object()
}

func keysInput(f *parsed.File, withFinal bool, lm locs) ast.Value {
	eff := f.Effective()
	keys := newObject(len(eff))
	for k, e := range eff {
		m := newObject(5)
		m.str("value", e.Value)
		m.term("kind", key(string(e.Kind)))
		m.value("loc", lm.of(entryLoc(e)))
		if withFinal && e.Final {
			m.flag("final", true)
		}
		if e.WrittenKey != "" && e.WrittenKey != k && withFinal {
			m.str("written_key", e.WrittenKey)
		}
		keys.term(k, m.objectTerm())
	}
	return keys.object()
}

func noticesInput(f *parsed.File, extra []parsed.Notice) *ast.Term {
	out := make([]*ast.Term, 0, len(f.Notices)+len(extra))
	for _, n := range f.Notices {
		out = append(out, noticeInput(n))
	}
	for _, n := range extra {
		out = append(out, noticeInput(n))
	}
	return ast.ArrayTerm(out...)
}

func noticeInput(n parsed.Notice) *ast.Term {
	m := newObject(4)
	m.str("code", n.Code)
	m.str("message", n.Message)
	m.str("key", n.Key)
	m.value("loc", LocOf(n.File, n.Span).toInput())
	return m.objectTerm()
}

// fileInput is the object of a file; extra are notices after the file's
// own (crossFinalNotices).
func fileInput(f *parsed.File, withFinal bool, extra []parsed.Notice, lm locs) object {
	m := newObject(16)
	m.str("file", f.Path)
	m.str("format", string(f.Format))
	m.value("keys", keysInput(f, withFinal, lm))
	m.term("notices", noticesInput(f, extra))
	m.flag("nested", f.Nested)
	if f.Err != nil {
		e := newObject(2)
		e.str("message", f.Err.Msg)
		e.value("loc", LocOf(f.Err.File, f.Err.Span()).toInput())
		m.value("error", e.object())
	}
	return m
}

func flinkInput(s *Set, uses []keyUse, lm locs) object {
	m := fileInput(s.Flink, false, nil, lm)
	ku := make([]*ast.Term, 0, len(uses))
	since := newObject(0)
	seen := map[string]bool{}
	for _, u := range uses {
		o := newObject(5)
		o.str("key", u.Key)
		o.str("problem", u.Problem)
		o.str("message", u.Message)
		o.str("use", u.Use)
		o.value("loc", lm.of(u.Loc))
		ku = append(ku, o.objectTerm())
		if v, ok := KeySince(u.Use); ok && !seen[u.Use] {
			seen[u.Use] = true
			since.str(u.Use, v.String())
		}
	}
	m.term("key_uses", ast.ArrayTerm(ku...))
	m.value("key_since", since.object())
	// unread: every catalogued key the known release does not read, with
	// why ("Flink 1.9 does not read execution.checkpointing.interval (it
	// exists from Flink 1.10)"), so a rule never proposes writing one.
	unread := ast.Value(ast.NewObject())
	if s.FlinkVersion.Known() {
		unread = unreadInput(s.FlinkVersion.ReadAs())
	}
	m.value("unread", unread)
	m.term("unknown_keys", unknownKeysInput(s.Flink, s.FlinkVersion, lm))
	if s.FlinkIgnored != nil {
		o := newObject(3)
		o.str("file", s.FlinkIgnored.Path)
		o.str("format", string(s.FlinkIgnored.Format))
		o.value("loc", LocOf(s.FlinkIgnored.Path, parsed.At(parsed.Top())).toInput())
		m.value("ignored_file", o.object())
	}
	pass := hadoopPassthrough(s.Flink)
	pt := newObject(len(pass))
	for k, e := range pass {
		o := newObject(3)
		o.str("value", e.Value)
		o.str("key", e.Key)
		o.value("loc", lm.of(entryLoc(e)))
		pt.term(k, o.objectTerm())
	}
	m.value("hadoop_passthrough", pt.object())
	if s.Manifest != nil {
		m.value("manifest", manifestInput(s.Manifest))
	}
	return m
}

func manifestInput(mf *Manifest) ast.Value {
	m := newObject(8)
	m.str("name", mf.Name)
	m.str("namespace", mf.Namespace)
	m.str("flink_version", mf.FlinkVersion)
	m.str("mode", mf.Mode)
	for _, f := range []struct {
		k string
		f *Field
	}{{"job_parallelism", mf.JobParallelism}, {"taskmanager_replicas", mf.TaskManagerReplicas}, {"upgrade_mode", mf.UpgradeMode}} {
		if f.f != nil {
			o := newObject(2)
			o.str("value", f.f.Value)
			o.value("loc", f.f.Loc.toInput())
			m.value(f.k, o.object())
		}
	}
	mounts := newObject(len(mf.Mounts))
	for comp, ms := range mf.Mounts {
		list := make([]*ast.Term, 0, len(ms))
		for _, mt := range ms {
			o := newObject(11)
			o.str("mount_path", mt.MountPath)
			o.str("sub_path", mt.SubPath)
			o.flag("read_only", mt.ReadOnly)
			o.str("volume", mt.Volume)
			o.str("volume_type", mt.VolumeType)
			o.str("detail", mt.Detail)
			o.str("class", mt.Class)
			o.term("access_modes", stringsTerm(mt.AccessModes))
			o.str("template", mt.Template)
			o.value("loc", mt.Loc.toInput())
			list = append(list, o.objectTerm())
		}
		mounts.term(comp, ast.ArrayTerm(list...))
	}
	m.value("mounts", mounts.object())
	return m.object()
}

func hadoopInput(s *Set, lm locs) object {
	var files []*parsed.File
	for _, r := range s.Client {
		files = append(files, r.File)
	}
	cross := crossFinalNotices(files)
	client := make([]*ast.Term, 0, len(s.Client))
	for _, r := range s.Client {
		fm := fileInput(r.File, true, cross[r.File], lm)
		fm.str("via", r.Via)
		fm.str("dir", r.Dir)
		client = append(client, fm.objectTerm())
	}
	refs := make([]*ast.Term, 0, len(s.HadoopConfRefs))
	for _, r := range s.HadoopConfRefs {
		o := newObject(5)
		o.str("key", r.Key)
		o.str("value", r.Value)
		o.str("resolved", r.Resolved)
		o.str("reason", r.Reason)
		o.value("loc", r.Loc.toInput())
		refs = append(refs, o.objectTerm())
	}
	m := newObject(3)
	m.term("client", ast.ArrayTerm(client...))
	m.term("conf_refs", ast.ArrayTerm(refs...))
	if s.ClusterHDFS != nil {
		m.value("cluster_hdfs_site", fileInput(s.ClusterHDFS, true, nil, lm).object())
	}
	return m
}

func clusterInput(c *config.Cluster, clock FactsClock) object {
	m := newObject(16)
	m.flag("declared", c != nil)
	if c == nil {
		return m
	}
	m.str("name", c.Name)
	setInt := func(k string, p *int) {
		if p != nil {
			m.num(k, *p)
		}
	}
	setInt64 := func(k string, p *int64) {
		if p != nil {
			m.num64(k, *p)
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
		m.str("datanode_hadoop_version", c.DatanodeHadoopVersion)
	}
	blocks, byAttr := factsInput(c.Facts, clock)
	m.term("fact_blocks", blocks)
	m.value("facts", byAttr.object())
	if c.WriteStall != nil {
		m.num64("write_stall_ms", c.WriteStall.Milliseconds())
	}
	if c.HadoopVersion != "" {
		m.str("hadoop_version", c.HadoopVersion)
	}
	return m
}

// deploymentInput is input.deployment. Besides the deployment block's own
// attributes it carries the size of the set's Flink cluster (taskmanagers,
// slots_per_taskmanager), resolved by config.SizeOf: the deployment's, else
// the cluster block's (their old place), with the block each came from in
// *_in and, when observed, its facts block in facts[attr]. A set no
// deployment block names gets the cluster's (declared stays false).
func deploymentInput(d *config.Deployment, cl *config.Cluster, clock FactsClock) object {
	m := newObject(20)
	m.flag("declared", d != nil)
	size := config.SizeOf(d, cl)
	sized := func(facts *factsByAttr) {
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
			m.num(a.attr, *a.v)
			m.str(a.attr+"_in", a.in)
			if a.f != nil && facts != nil {
				facts.put(a.attr, factInput(*a.f, clock))
			}
		}
	}
	if d == nil {
		sized(nil)
		return m
	}
	m.str("name", d.Name)
	deploymentCounts(&m, d)
	if d.Running != nil {
		m.value("running_checkpointing", runningInput(d.Running, clock).object())
	}
	blocks, byAttr := factsInput(d.Facts, clock)
	m.term("fact_blocks", blocks)
	sized(&byAttr)
	m.value("facts", byAttr.object())
	return m
}

// deploymentCounts adds the numbers of a deployment block that are set.
func deploymentCounts(m *object, d *config.Deployment) {
	for _, a := range []struct {
		k string
		p *int
	}{{"jobs", d.Jobs}, {"stateful_operators", d.StatefulOperators}, {"parallelism", d.Parallelism}} {
		if a.p != nil {
			m.num(a.k, *a.p)
		}
	}
	if d.CheckpointP99 != nil {
		m.num64("checkpoint_p99_ms", d.CheckpointP99.Milliseconds())
	}
	for _, a := range []struct {
		k string
		p *int64
	}{{"checkpoint_size", d.CheckpointSize}, {"checkpoint_failed", d.CheckpointFailed}, {"state_size", d.StateSize}} {
		if a.p != nil {
			m.num64(a.k, *a.p)
		}
	}
}
