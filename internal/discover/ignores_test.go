package discover

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files (slash paths relative to dir) into dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestIgnoresFromTheFirstParse: a file's ignore comments come from the
// comments its reader returned, read at its first parse and kept however
// often it is parsed again (a Hadoop file several sets read, parsed once
// per set and with or without CDATA); a manifest's come from discovery's
// parse; config.yaml and flink-conf.yaml find them as their parsers do;
// those of an xi:include target come from its includer's parse, whatever
// the target is named (Hadoop reads it as XML); a file discovery refused
// has none.
func TestIgnoresFromTheFirstParse(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"h/hdfs-site.xml": `<configuration xmlns:xi="http://www.w3.org/2001/XInclude">
  <xi:include href="extra.conf"/>
  <!-- ckptlint:ignore CKPT101 - above the property -->
  <property><name>dfs.blocksize</name><value><![CDATA[<!-- ckptlint:ignore CKPT102 - text -->]]></value></property>
</configuration>
`,
		"h/extra.conf":      "<configuration>\n  <property><name>a</name><value>1</value></property> <!-- ckptlint:ignore CKPT105 - in the target -->\n</configuration>\n",
		"m/deploy.yaml":     "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: a # ckptlint:ignore CKPT201 -- in the manifest\nspec:\n  flinkConfiguration:\n    x: \"# ckptlint:ignore CKPT202 -- text\"\n",
		"c/config.yaml":     "state.checkpoints.dir: \"hdfs://nn/c # ckptlint:ignore CKPT201 -- in the value\"\nexecution.checkpointing.interval: 1 min # ckptlint:ignore CKPT202 -- config.yaml\n",
		"l/flink-conf.yaml": "state.checkpoints.dir: \"hdfs://nn/c # ckptlint:ignore CKPT201 -- legacy\"\n",
		"r/flink-conf.yaml": strings.Repeat("a: 1\n", 50_001) + "# ckptlint:ignore CKPT101 -- beyond the limit\n",
	})
	d, err := Walk([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	get := func(name string) *Found {
		t.Helper()
		f := d.Get(filepath.Join(dir, filepath.FromSlash(name)))
		if f == nil {
			t.Fatalf("%s not found", name)
		}
		return f
	}

	h := get("h/hdfs-site.xml")
	if h.Ignores() != nil {
		t.Fatal("ignores before the first parse")
	}
	d.Parse(h, false)
	first := h.Ignores()
	if first == nil || len(first.Ignores) != 1 || first.Ignores[0].Reason != "above the property" || first.Ignores[0].From != 4 {
		t.Fatalf("ignores of hdfs-site.xml: %+v", first)
	}
	inc := h.IncludeIgnores()
	if len(inc) != 1 || !strings.HasSuffix(inc[0].Path, "h/extra.conf") || len(inc[0].Ignores) != 1 || inc[0].Ignores[0].Reason != "in the target" {
		t.Fatalf("ignores of the include target: %+v", inc)
	}
	d.Parse(h, true) // another set, another reading of CDATA
	if h.Ignores() != first || len(h.IncludeIgnores()) != 1 {
		t.Error("a second parse replaced the ignores of the first")
	}

	m := get("m/deploy.yaml")
	if ig := m.Ignores(); ig == nil || len(ig.Ignores) != 1 || ig.Ignores[0].Reason != "in the manifest" {
		t.Fatalf("ignores of the manifest: %+v", ig)
	}

	// In config.yaml a '#' inside a quoted value is text (YAML 1.2); the
	// legacy parser cuts every line at its first '#', quotes or not (the
	// closing quote is part of the reason).
	for name, want := range map[string]string{"c/config.yaml": "config.yaml", "l/flink-conf.yaml": `legacy"`} {
		f := get(name)
		d.Parse(f, false)
		if ig := f.Ignores(); ig == nil || len(ig.Ignores) != 1 || ig.Ignores[0].Reason != want {
			t.Errorf("ignores of %s: %+v, want the one with reason %q", name, ig, want)
		}
	}

	r := get("r/flink-conf.yaml")
	if r.Err == nil {
		t.Fatal("the file over the line limit was not refused")
	}
	d.Parse(r, false)
	if r.Ignores() != nil {
		t.Errorf("a refused file has ignores: %+v", r.Ignores())
	}
}
