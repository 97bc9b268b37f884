package write

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkWriteAll writes a three-file fix (journal, three staged files,
// commit record, three renames, directory fsyncs) per iteration: what the
// crash safety costs on the machine's file system.
func BenchmarkWriteAll(b *testing.B) {
	root := b.TempDir()
	var paths []string
	for i := range 3 {
		p := filepath.Join(root, "set"+strconv.Itoa(i), "hdfs-site.xml")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("<configuration/>\n"), 0o644)
		paths = append(paths, p)
	}
	old, next := []byte("<configuration/>\n"), []byte("<configuration>\n  <property/>\n</configuration>\n")
	for b.Loop() {
		var cs []Change
		for _, p := range paths {
			cs = append(cs, Change{Path: p, Old: old, New: next, Mode: 0o644})
		}
		if err := All(cs, root); err != nil {
			b.Fatal(err)
		}
		old, next = next, old
	}
}
