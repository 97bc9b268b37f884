package lint_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/lint"
)

// TestSubstitutionAcrossFiles: Hadoop expands ${var} when a value is read,
// over the configuration merged from every resource (Configuration.get:
// substituteVars(getProps().getProperty(name)); Hadoop 3.4.1 L1150-1270),
// core-site.xml then hdfs-site.xml, a later resource winning unless an
// earlier one made the key final, and flink.hadoop.* set() over them
// (issue 23, item 1). JVM system properties win over a key of the same
// name and, like environment variables, are unknown to ckptlint (item 2).
func TestSubstitutionAcrossFiles(t *testing.T) {
	site := func(props ...string) string {
		return "<?xml version=\"1.0\"?>\n<configuration>\n" + strings.Join(props, "") + "</configuration>\n"
	}
	prop := func(k, v string) string {
		return "<property><name>" + k + "</name><value>" + v + "</value></property>\n"
	}
	final := func(k, v string) string {
		return "<property><name>" + k + "</name><value>" + v + "</value><final>true</final></property>\n"
	}
	dir := t.TempDir()
	for p, body := range map[string]string{
		"a/flink-conf.yaml": "state.checkpoints.dir: hdfs://nn:8020/ckpt\n",
		"a/core-site.xml": site(prop("x", "1m"), prop("hadoop.tmp.dir", "/data/hadoop-${user.name}"), prop("user.name", "from-the-file"),
			prop("b", "core"), prop("own", "${b}"), final("locked", "2"), prop("fs.defaultFS", "hdfs://${nn}")),
		"a/hdfs-site.xml": site(prop("dfs.blocksize", "${x}"), prop("dfs.datanode.data.dir", "file://${hadoop.tmp.dir}/dfs/data"),
			prop("b", "hdfs"), prop("locked", "3"), prop("dfs.replication", "${locked}"), prop("nn", "nn1:8020"),
			prop("dfs.client.block.write.replace-datanode-on-failure.policy", "${env.POLICY:-NEVER}"),
			prop("dfs.client.socket-timeout", "${user.name}")),
		// two Flink configurations read one Hadoop directory, each with its own flink.hadoop.x
		"b1/flink-conf.yaml":   "fs.hdfs.hadoopconf: ../shared\nflink.hadoop.x: 4m\n",
		"b2/flink-conf.yaml":   "fs.hdfs.hadoopconf: ../shared\nflink.hadoop.x: 8m\n",
		"shared/core-site.xml": site(prop("x", "2m")),
		"shared/hdfs-site.xml": site(prop("dfs.blocksize", "${x}")),
	} {
		mkfile(t, filepath.Join(dir, p), body)
	}
	sets, _, err := lint.Discover([]string{dir}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string]map[string]any{}
	for _, s := range sets {
		v, err := model.Input(s)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(ast.NewTerm(v).String()), &m); err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(s.Name)] = m
	}
	eff := func(set, field string) map[string]any {
		sec, name, _ := strings.Cut(field, ".")
		v, _ := inputs[set]["effective"].(map[string]any)[sec].(map[string]any)[name].(map[string]any)
		return v
	}
	key := func(set, file, k string) any {
		for _, c := range inputs[set]["hadoop"].(map[string]any)["client"].([]any) {
			c := c.(map[string]any)
			if strings.HasSuffix(c["file"].(string), file) {
				if e, ok := c["keys"].(map[string]any)[k].(map[string]any); ok {
					return e["value"]
				}
			}
		}
		return nil
	}
	for _, tt := range []struct {
		what string
		got  any
		want any
	}{
		{"dfs.blocksize ${x} reads core-site.xml's x", eff("a", "hdfs_client.blocksize")["value"], float64(1 << 20)},
		{"no parse error", eff("a", "hdfs_client.blocksize")["error"], nil},
		{"inspect shows the expanded value", key("a", "hdfs-site.xml", "dfs.blocksize"), "1m"},
		{"${hadoop.tmp.dir} of core-site.xml, whose ${user.name} is the JVM's", key("a", "hdfs-site.xml", "dfs.datanode.data.dir"), "file:///data/hadoop-${user.name}/dfs/data"},
		{"core-site.xml's own ${b} reads the later hdfs-site.xml's b", key("a", "core-site.xml", "own"), "hdfs"},
		{"core-site.xml's ${nn} reads hdfs-site.xml", eff("a", "hdfs_client.default_fs")["value"], "hdfs://nn1:8020"},
		{"a final key holds against the later resource", eff("a", "hdfs_client.replication")["value"], float64(2)},
		{"${env.POLICY:-NEVER} is NEVER unless POLICY is set", eff("a", "hdfs_client.replace_datanode_policy")["value"], "NEVER"},
		{"... and unknown", eff("a", "hdfs_client.replace_datanode_policy")["template"], true},
		{"${user.name} is the JVM's, not the key's", eff("a", "hdfs_client.socket_timeout")["template"], true},
		{"flink.hadoop.x is set() over the resources (b1)", eff("b1", "hdfs_client.blocksize")["value"], float64(4 << 20)},
		{"flink.hadoop.x is set() over the resources (b2)", eff("b2", "hdfs_client.blocksize")["value"], float64(8 << 20)},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.what, tt.got, tt.want)
		}
	}
	for _, field := range []string{"hdfs_client.replace_datanode_policy", "hdfs_client.socket_timeout"} {
		if u, _ := eff("a", field)["unknown"].(string); !strings.Contains(u, "ckptlint cannot see the environment or the JVM") {
			t.Errorf("%s: unknown = %q", field, u)
		}
	}
	if u, _ := eff("a", "hdfs_client.replace_datanode_policy")["unknown"].(string); !strings.Contains(u, `"NEVER" unless the environment variable POLICY is set`) {
		t.Errorf("unknown = %q", u)
	}

	// The same through a whole run, streamed: no CKPT000, and the values
	// are judged as merged (1m blocks: CKPT105's cap of 9.8 GiB).
	res := linttest.Streamed(t, linttest.Engine(t), dir, lint.Options{})
	var b strings.Builder
	for _, f := range res.Findings {
		b.WriteString(f.RuleID + " " + f.Range.File + ": " + f.Message + " " + f.Detail + "\n")
	}
	out := b.String()
	if strings.Contains(out, "CKPT000") || strings.Contains(out, "For input string") {
		t.Errorf("a value that reads another file's key is refused:\n%s", out)
	}
	if !strings.Contains(out, "dfs.blocksize 1 MiB (from a/hdfs-site.xml:3)") {
		t.Errorf("dfs.blocksize is not judged as 1 MiB:\n%s", out)
	}
}

// TestPassthroughNotSubstituted pins a deliberate difference
// (docs/input.md): Hadoop would expand ${x} in a flink.hadoop.* value when
// the key is read (Configuration.get substitutes set() values too), but
// ckptlint reads Flink's file with Flink's placeholder recogniser, for
// which ${x} is a template placeholder: the value is unknown, not x.
func TestPassthroughNotSubstituted(t *testing.T) {
	dir := t.TempDir()
	mkfile(t, filepath.Join(dir, "flink-conf.yaml"), "state.checkpoints.dir: hdfs://nn:8020/ckpt\nflink.hadoop.dfs.blocksize: ${x}\n")
	mkfile(t, filepath.Join(dir, "core-site.xml"), "<configuration><property><name>x</name><value>1m</value></property></configuration>\n")
	sets, _, err := lint.Discover([]string{dir}, lint.Options{})
	if err != nil || len(sets) != 1 {
		t.Fatalf("sets %v, %v", sets, err)
	}
	v, err := model.Input(sets[0])
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(ast.NewTerm(v).String()), &m); err != nil {
		t.Fatal(err)
	}
	bs := m["effective"].(map[string]any)["hdfs_client"].(map[string]any)["blocksize"].(map[string]any)
	if bs["template"] != true || bs["value"] == float64(1<<20) {
		t.Errorf("flink.hadoop.dfs.blocksize ${x}: %v, want an unknown value", bs)
	}
}
