package model

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// object collects the members of an object of the input document, built
// as an OPA value directly: ast.InterfaceToValue of Go maps built every
// object twice (input.go). Its keys must be distinct: ast.NewObject keeps
// a repeated key twice, where a Go map kept the last value.
type object [][2]*ast.Term

func newObject(n int) object { return make(object, 0, n) }

func (o *object) term(k string, v *ast.Term) { *o = append(*o, ast.Item(key(k), v)) }

func (o *object) value(k string, v ast.Value) { o.term(k, ast.NewTerm(v)) }

func (o *object) str(k, v string) { o.term(k, ast.StringTerm(v)) }

func (o *object) num(k string, v int) { o.term(k, ast.InternedTerm(v)) }

func (o *object) num64(k string, v int64) { o.term(k, int64Term(v)) }

func (o *object) flag(k string, v bool) { o.term(k, ast.InternedTerm(v)) }

// val is a member whose value is one of the Go values Value.Value holds.
func (o *object) val(k string, v any) { o.term(k, anyTerm(v)) }

func (o object) object() ast.Value { return ast.NewObject(o...) }

func (o object) objectTerm() *ast.Term { return ast.NewTerm(ast.NewObject(o...)) }

// int64Term is ast.InterfaceToValue's number of an int64: its decimal text.
func int64Term(v int64) *ast.Term { return ast.InternedTerm(int(v)) }

// anyTerm is ast.InterfaceToValue of x as a term; x holds only nil, bool,
// int, int64 or string (Value.Value), null otherwise.
func anyTerm(x any) *ast.Term {
	v, err := ast.InterfaceToValue(x)
	if err != nil {
		return ast.NullTerm()
	}
	return ast.NewTerm(v)
}

// stringsTerm is an array of strings (a []string InterfaceToValue converted).
func stringsTerm(ss []string) *ast.Term {
	ts := make([]*ast.Term, len(ss))
	for i, s := range ss {
		ts[i] = ast.StringTerm(s)
	}
	return ast.ArrayTerm(ts...)
}

// key is the term of an object key, or of a value of a few (a kind, a
// source): the keys of the input document are built once (most are not
// among the strings OPA interns, so each use allocated a term), any other
// is a new term.
func key(k string) *ast.Term {
	if t, ok := keyTerms[k]; ok {
		return t
	}
	return ast.StringTerm(k)
}

// keyTerms are the keys docs/input.md documents; it is only read after
// init, so every goroutine may.
var keyTerms = func() map[string]*ast.Term {
	m := map[string]*ast.Term{}
	for _, k := range []string{
		// input.go
		"ckptlint", "schema", "set", "name", "versions", "flink", "hadoop", "effective", "derived",
		"cluster", "deployment", "deployed", "facts", "value", "kind", "loc", "final", "written_key",
		"code", "message", "key", "file", "format", "keys", "notices", "nested", "error",
		"key_uses", "problem", "use", "key_since", "unread", "unknown_keys", "ignored_file",
		"hadoop_passthrough", "manifest", "namespace", "flink_version", "mode", "job_parallelism",
		"taskmanager_replicas", "upgrade_mode", "mounts", "mount_path", "sub_path", "read_only",
		"volume", "volume_type", "detail", "class", "access_modes", "template", "client", "via",
		"dir", "conf_refs", "resolved", "reason", "cluster_hdfs_site", "declared", "datanodes",
		"datanode_free_bytes", "datanode_blocks", "taskmanagers", "slots_per_taskmanager",
		"min_block_size", "other_writers", "datanode_blocks_scheduled", "datanode_hadoop_version",
		"write_stall_ms", "hadoop_version", "taskmanagers_in", "slots_per_taskmanager_in", "jobs",
		"stateful_operators", "parallelism", "checkpoint_p99_ms", "checkpoint_size",
		"checkpoint_failed", "state_size", "running_checkpointing",
		// version.go
		"source", "known", "why", "where", "text", "covered", "outside", "coverage", "table",
		"major", "minor", "patch", "evidence", "conflicts", "skipped", "version", "what", "line", "place",
		// facts.go
		"max_age_ms", "max_age", "today", "config_file", "fact_blocks", "observed_at", "date",
		"attributes", "cite", "at", "age_ms", "age", "stale", "job_id", "interval_ms", "timeout_ms",
		"min_pause_ms", "max_concurrent", "tolerable_failures", "unaligned",
		// derived.go
		"checkpointing", "checkpoints_on_hdfs", "effective_interval",
		// flinkoptions.go
		"known_in", "known_ranges", "checked_against", "exact", "suggestion",
		// value.go
		"display", "raw", "deprecated", "unknown", "varies", "lenient",
		// values: parsed.Kind, Value.Source
		string(parsed.KindString), string(parsed.KindInt), string(parsed.KindFloat), string(parsed.KindBool),
		string(parsed.KindNull), string(parsed.KindList), "file", "flink.hadoop", "cluster-config", "default", "unset",
	} {
		m[k] = ast.StringTerm(k)
	}
	return m
}()
