package config

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that no input panics Parse, Validate, Ignored or Write,
// and that Parse never returns nil.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"bad.hcl", "syntax.hcl"} {
		src, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte("ignore = [\"**/a/**/b\"]\ncluster \"c\" {\n  datanode_free_bytes = \"1k\"\n  write_stall = \"1 min\"\n}\n"))
	f.Add([]byte("path_mappings = { \"/a\" = \"b\" }\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		cfg, diags := Parse(FileName, src)
		if cfg == nil || diags == nil {
			t.Fatal("Parse returned nil")
		}
		diags.Append(cfg.Validate([]string{"CKPT101"})...)
		_ = diags.Write(io.Discard, true)
		_ = cfg.Ignored("a/b/c.yaml")
	})
}
