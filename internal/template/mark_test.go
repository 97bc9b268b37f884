package template_test

import (
	"testing"

	"github.com/ckptlint/ckptlint/internal/format/flinkconf"
	"github.com/ckptlint/ckptlint/internal/format/hadoopxml"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/template"
)

// TestMarkHadoopAfterSubstitution checks that Hadoop XML is judged after
// Configuration.substituteVars: a ${var} the file defines is Hadoop
// semantics, one nothing defines is a placeholder.
func TestMarkHadoopAfterSubstitution(t *testing.T) {
	src := `<configuration>
<property><name>base</name><value>/data</value></property>
<property><name>dfs.datanode.data.dir</name><value>${base}/dn</value></property>
<property><name>dfs.replication</name><value>${REPLICATION}</value></property>
</configuration>`
	f := hadoopxml.Parse("hdfs-site.xml", []byte(src), hadoopxml.Options{})
	c, pos := template.MarkEntries(f, template.For(f.Format))
	if c.Total() != 1 || c[string(template.ShellBrace)] != 1 {
		t.Fatalf("count = %v, want one ${VAR}", c)
	}
	if pos.Line != 4 {
		t.Errorf("first placeholder on line %d, want 4", pos.Line)
	}
	for _, e := range f.Entries {
		if got := len(e.Placeholders) > 0; got != (e.Key == "dfs.replication") {
			t.Errorf("%s: placeholders %v", e.Key, e.Placeholders)
		}
	}
}

// TestMarkKeys checks placeholders in keys, and that env.java.opts keeps
// its shell variables (Flink's scripts expand them).
func TestMarkKeys(t *testing.T) {
	f := flinkconf.Parse("flink-conf.yaml", []byte("${PREFIX}.dir: x\nenv.java.opts.all: -Dx=${HOME}\nstate.checkpoints.dir: {{ dir }}\n"))
	c, _ := template.MarkEntries(f, template.For(f.Format))
	if c.Total() != 2 {
		t.Errorf("count = %v, want 2", c)
	}
	want := map[string]bool{"${PREFIX}.dir": true, "env.java.opts.all": false, "state.checkpoints.dir": true}
	for _, e := range f.Entries {
		if got := len(e.Placeholders) > 0; got != want[e.Key] {
			t.Errorf("%s: placeholders %v, want %v", e.Key, e.Placeholders, want[e.Key])
		}
	}
	if got := (template.Count{"${VAR}": 1, "{{ x }}": 3}).String(); got != "3 {{ x }}, 1 ${VAR}" {
		t.Errorf("String = %q", got)
	}
	_ = parsed.KindString
}
